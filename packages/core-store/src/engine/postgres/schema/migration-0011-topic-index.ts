/** As SQLite's migration 11: the topic index (first mention of each term per session and author). */
export const POSTGRES_MIGRATION_0011_TOPIC_INDEX = `
CREATE TABLE topic_mentions (
  workspace_id text NOT NULL,
  session_id   text NOT NULL,
  peer_id      text NOT NULL,
  term         text NOT NULL,
  message_id   bigint NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  created_at   text NOT NULL,
  PRIMARY KEY (workspace_id, session_id, peer_id, term)
);
CREATE INDEX topic_mentions_by_term ON topic_mentions (workspace_id, term);
CREATE INDEX topic_mentions_by_message ON topic_mentions (message_id);
CREATE TABLE topic_progress (
  workspace_id    text NOT NULL,
  session_id      text NOT NULL,
  last_message_id bigint NOT NULL,
  messages_read   integer NOT NULL,
  PRIMARY KEY (workspace_id, session_id),
  FOREIGN KEY (workspace_id, session_id) REFERENCES sessions(workspace_id, id) ON DELETE CASCADE
);
`
