/** As SQLite's migration 7: the highest queue total reported per session and workspace. */
export const POSTGRES_MIGRATION_0007_QUEUE_TOTALS = `
CREATE TABLE queue_totals (
  workspace_id text NOT NULL,
  session_key  text NOT NULL,
  total        bigint NOT NULL,
  PRIMARY KEY (workspace_id, session_key)
);
`
