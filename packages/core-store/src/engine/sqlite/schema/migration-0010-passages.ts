import { FTS5_TOKENIZE } from '../../../text/fts5-tokenizer'

/**
 * Passages inside long messages: each a stretch `[start_char, end_char)` of one message's content, with its
 * text, indexed on its own (FTS and vectors), so a long turn is found by the sentence that matters instead
 * of one diluted document. Derived from the messages (dreaming writes them), removed with their message.
 */
export const MIGRATION_0010_PASSAGES = `
CREATE TABLE passages (
  id           INTEGER PRIMARY KEY,
  message_id   INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL,
  session_id   TEXT NOT NULL,
  peer_id      TEXT NOT NULL,
  ordinal      INTEGER NOT NULL,
  start_char   INTEGER NOT NULL,
  end_char     INTEGER NOT NULL,
  text         TEXT NOT NULL,
  UNIQUE (message_id, ordinal)
);
CREATE INDEX passages_by_workspace ON passages (workspace_id, message_id);
CREATE VIRTUAL TABLE passages_fts USING fts5(
  text, content='', contentless_delete=1, tokenize="${FTS5_TOKENIZE}"
);
CREATE TRIGGER passages_fts_insert AFTER INSERT ON passages BEGIN
  INSERT INTO passages_fts(rowid, text) VALUES (new.id, hymem_fts_text(new.text));
END;
CREATE TRIGGER passages_fts_delete AFTER DELETE ON passages BEGIN
  DELETE FROM passages_fts WHERE rowid = old.id;
END;
CREATE TABLE passage_embeddings (
  passage_id   INTEGER PRIMARY KEY REFERENCES passages(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL,
  model        TEXT NOT NULL,
  text_hash    TEXT NOT NULL,
  vector       BLOB NOT NULL
);
CREATE INDEX passage_embeddings_by_workspace ON passage_embeddings (workspace_id);
`
