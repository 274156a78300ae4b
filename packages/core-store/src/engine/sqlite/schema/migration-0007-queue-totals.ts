/**
 * The highest queue total reported per session (and per workspace, under the empty session key), so Honcho's
 * queue status never shrinks when messages are deleted and reads the same from every server on the database.
 */
export const MIGRATION_0007_QUEUE_TOTALS = `
CREATE TABLE queue_totals (
  workspace_id TEXT NOT NULL,
  session_key  TEXT NOT NULL,
  total        INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, session_key)
);
`
