/**
 * Standing rules: a user-role turn that states a rule or preference for later requests
 * ("Always …", "Never …", "from now on …", "I prefer …"). The topic index's reading of each session finds them
 * (dreaming), so a rule goes with its message. Progress is cleared so stores dreamed before this version are
 * read once more (their first mentions are kept, not duplicated).
 */
export const MIGRATION_0012_STANDING_RULES = `
CREATE TABLE standing_rules (
  message_id   INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL,
  session_id   TEXT NOT NULL,
  peer_id      TEXT NOT NULL,
  created_at   TEXT NOT NULL
);
CREATE INDEX standing_rules_by_workspace ON standing_rules (workspace_id, created_at);
DELETE FROM topic_progress;
`
