/** As SQLite's migration 5: per-message vectors (pgvector), filled by dreaming. */
export const POSTGRES_MIGRATION_0005_MESSAGE_VECTORS = `
CREATE TABLE message_embeddings (
  message_id   bigint PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  model        text NOT NULL,
  text_hash    text NOT NULL,
  vector       vector NOT NULL
);
CREATE INDEX message_embeddings_by_workspace ON message_embeddings (workspace_id);
`
