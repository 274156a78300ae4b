/** Per-edge vectors, as SQLite's migration 2 (`edge_embeddings` stays the cross-workspace text cache). */
export const POSTGRES_MIGRATION_0002_EDGE_VECTORS = `
CREATE TABLE edge_vectors (
  edge_id      bigint PRIMARY KEY REFERENCES knowledge_graph(id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  model        text NOT NULL,
  text_hash    text NOT NULL,
  vector       vector NOT NULL
);
CREATE INDEX edge_vectors_by_workspace ON edge_vectors (workspace_id);
CREATE INDEX episode_embeddings_by_workspace ON episode_embeddings (workspace_id);
CREATE INDEX note_embeddings_by_workspace ON note_embeddings (workspace_id);
`
