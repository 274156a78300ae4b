/**
 * Per-edge vectors for the edge index. `edge_embeddings` stays the cross-workspace cache keyed by triple
 * text; `edge_vectors` says which `knowledge_graph` rows are indexed (so removal and text-hash checks work
 * per edge, and the JS fallback can scan a workspace's edges). Workspace indexes for the episode and note
 * vectors let the fallback scan stay bounded.
 */
export const MIGRATION_0002_EDGE_VECTORS = `
CREATE TABLE edge_vectors (
  edge_id      INTEGER PRIMARY KEY REFERENCES knowledge_graph(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL,
  model        TEXT NOT NULL,
  text_hash    TEXT NOT NULL,
  vector       BLOB NOT NULL
);
CREATE INDEX edge_vectors_by_workspace ON edge_vectors (workspace_id);
CREATE INDEX episode_embeddings_by_workspace ON episode_embeddings (workspace_id);
CREATE INDEX note_embeddings_by_workspace ON note_embeddings (workspace_id);
`
