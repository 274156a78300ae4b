/** As SQLite's migration 12: the standing rules a user gave an assistant (found by the topic index). */
export const POSTGRES_MIGRATION_0012_STANDING_RULES = `
CREATE TABLE standing_rules (
  message_id   bigint PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  session_id   text NOT NULL,
  peer_id      text NOT NULL,
  created_at   text NOT NULL
);
CREATE INDEX standing_rules_by_workspace ON standing_rules (workspace_id, created_at);
DELETE FROM topic_progress;
`
