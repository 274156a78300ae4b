/**
 * Per-message vectors, so augment can fuse the meaning of single conversation turns with their keyword
 * scores (chunks only cover the salient stretches, several turns at once). Filled by dreaming.
 */
export const MIGRATION_0005_MESSAGE_VECTORS = `
CREATE TABLE message_embeddings (
  message_id   INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL,
  model        TEXT NOT NULL,
  text_hash    TEXT NOT NULL,
  vector       BLOB NOT NULL
);
CREATE INDEX message_embeddings_by_workspace ON message_embeddings (workspace_id);
`
