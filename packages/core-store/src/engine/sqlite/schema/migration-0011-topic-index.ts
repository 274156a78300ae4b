/**
 * The topic index: where each term first came up in each session, per author, so questions over the whole
 * conversation ("in which order did I bring up …") can enumerate first mentions instead of the best-scoring
 * turns of one session. Derived from the messages (dreaming writes it): a mention goes with its message, and
 * `topic_progress` records how far each session was read, with the number of its messages read, so a session
 * that lost a message is read again from its start.
 */
export const MIGRATION_0011_TOPIC_INDEX = `
CREATE TABLE topic_mentions (
  workspace_id TEXT NOT NULL,
  session_id   TEXT NOT NULL,
  peer_id      TEXT NOT NULL,
  term         TEXT NOT NULL,
  message_id   INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  created_at   TEXT NOT NULL,
  PRIMARY KEY (workspace_id, session_id, peer_id, term)
);
CREATE INDEX topic_mentions_by_term ON topic_mentions (workspace_id, term);
CREATE INDEX topic_mentions_by_message ON topic_mentions (message_id);
CREATE TABLE topic_progress (
  workspace_id    TEXT NOT NULL,
  session_id      TEXT NOT NULL,
  last_message_id INTEGER NOT NULL,
  messages_read   INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, session_id),
  FOREIGN KEY (workspace_id, session_id) REFERENCES sessions(workspace_id, id) ON DELETE CASCADE
);
`
