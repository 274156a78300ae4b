/**
 * The initial schema: the walkthrough's tables (names kept so operators who know HyMem can read the file),
 * plus workspaces, session membership, notes, search log, scopes, peer cards and the LLM response cache.
 * Every row is scoped by `workspace_id`. Times are ISO-8601 UTC strings. JSON columns hold text.
 * Vector (vec0) tables are created on first use by the vector index, once the dimension is known.
 */
export const MIGRATION_0001_INITIAL = `
CREATE TABLE workspaces (
  id            TEXT PRIMARY KEY,
  metadata      TEXT NOT NULL DEFAULT '{}',
  configuration TEXT NOT NULL DEFAULT '{}',
  created_at    TEXT NOT NULL
);

CREATE TABLE peers (
  workspace_id  TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  id            TEXT NOT NULL,
  role          TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'assistant', 'system', 'tool', 'other')),
  metadata      TEXT NOT NULL DEFAULT '{}',
  configuration TEXT NOT NULL DEFAULT '{}',
  created_at    TEXT NOT NULL,
  PRIMARY KEY (workspace_id, id)
);

CREATE TABLE sessions (
  workspace_id            TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  id                      TEXT NOT NULL,
  is_active               INTEGER NOT NULL DEFAULT 1,
  metadata                TEXT NOT NULL DEFAULT '{}',
  configuration           TEXT NOT NULL DEFAULT '{}',
  summary                 TEXT,
  summary_message_id      INTEGER,
  summary_updated_at      TEXT,
  last_chunked_message_id INTEGER NOT NULL DEFAULT 0,
  started_at              TEXT NOT NULL,
  ended_at                TEXT,
  created_at              TEXT NOT NULL,
  PRIMARY KEY (workspace_id, id)
);

CREATE TABLE session_peers (
  workspace_id  TEXT NOT NULL,
  session_id    TEXT NOT NULL,
  peer_id       TEXT NOT NULL,
  configuration TEXT NOT NULL DEFAULT '{}',
  joined_at     TEXT NOT NULL,
  left_at       TEXT,
  PRIMARY KEY (workspace_id, session_id, peer_id),
  FOREIGN KEY (workspace_id, session_id) REFERENCES sessions(workspace_id, id) ON DELETE CASCADE,
  FOREIGN KEY (workspace_id, peer_id) REFERENCES peers(workspace_id, id) ON DELETE CASCADE
);
CREATE INDEX session_peers_by_peer ON session_peers (workspace_id, peer_id);

CREATE TABLE messages (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  public_id    TEXT NOT NULL UNIQUE,
  workspace_id TEXT NOT NULL,
  session_id   TEXT NOT NULL,
  peer_id      TEXT NOT NULL,
  role         TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
  content      TEXT NOT NULL,
  metadata     TEXT NOT NULL DEFAULT '{}',
  token_count  INTEGER NOT NULL DEFAULT 0,
  created_at   TEXT NOT NULL,
  FOREIGN KEY (workspace_id, session_id) REFERENCES sessions(workspace_id, id) ON DELETE CASCADE
);
CREATE INDEX messages_by_session ON messages (workspace_id, session_id, id);
CREATE INDEX messages_by_peer ON messages (workspace_id, peer_id, id);
CREATE INDEX messages_by_time ON messages (workspace_id, created_at);

CREATE VIRTUAL TABLE messages_fts USING fts5(
  content, content='messages', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
  INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;

CREATE TABLE chunks (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id     TEXT NOT NULL,
  session_id       TEXT NOT NULL,
  text             TEXT NOT NULL,
  salience_reason  TEXT NOT NULL,
  message_ids      TEXT NOT NULL DEFAULT '[]',
  first_message_id INTEGER NOT NULL,
  last_message_id  INTEGER NOT NULL,
  occurred_at      TEXT NOT NULL,
  created_at       TEXT NOT NULL,
  FOREIGN KEY (workspace_id, session_id) REFERENCES sessions(workspace_id, id) ON DELETE CASCADE
);
CREATE INDEX chunks_by_session ON chunks (workspace_id, session_id, id);
CREATE INDEX chunks_by_time ON chunks (workspace_id, occurred_at);
CREATE UNIQUE INDEX chunks_by_span ON chunks (workspace_id, session_id, first_message_id, last_message_id);

CREATE VIRTUAL TABLE chunks_fts USING fts5(
  text, content='chunks', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER chunks_fts_insert AFTER INSERT ON chunks BEGIN
  INSERT INTO chunks_fts(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER chunks_fts_update AFTER UPDATE OF text ON chunks BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
  INSERT INTO chunks_fts(rowid, text) VALUES (new.id, new.text);
END;

CREATE TABLE processed_chunks (
  chunk_id       INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
  prompt_version TEXT NOT NULL,
  extractor      TEXT NOT NULL,
  processed_at   TEXT NOT NULL,
  PRIMARY KEY (chunk_id, prompt_version)
);

CREATE TABLE entity_mentions (
  workspace_id TEXT NOT NULL,
  chunk_id     INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
  entity       TEXT NOT NULL,
  PRIMARY KEY (chunk_id, entity)
);
CREATE INDEX entity_mentions_by_entity ON entity_mentions (workspace_id, entity);

CREATE TABLE entity_types (
  workspace_id TEXT NOT NULL,
  entity       TEXT NOT NULL,
  type         TEXT NOT NULL,
  evidence     INTEGER NOT NULL DEFAULT 1,
  updated_at   TEXT NOT NULL,
  PRIMARY KEY (workspace_id, entity)
);
CREATE INDEX entity_types_by_type ON entity_types (workspace_id, type);

CREATE TABLE entity_aliases (
  workspace_id TEXT NOT NULL,
  surface      TEXT NOT NULL,
  canonical    TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  PRIMARY KEY (workspace_id, surface)
);
CREATE INDEX entity_aliases_by_canonical ON entity_aliases (workspace_id, canonical);

CREATE TABLE knowledge_graph (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id    TEXT NOT NULL,
  subject         TEXT NOT NULL,
  predicate       TEXT NOT NULL,
  object          TEXT NOT NULL,
  pos_evidence    INTEGER NOT NULL DEFAULT 0,
  neg_evidence    INTEGER NOT NULL DEFAULT 0,
  confidence      REAL NOT NULL DEFAULT 0.5,
  status          TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'stale', 'retracted')),
  derived         INTEGER NOT NULL DEFAULT 0,
  first_seen      TEXT NOT NULL,
  last_seen       TEXT NOT NULL,
  last_reinforced TEXT NOT NULL,
  valid_from      TEXT NOT NULL,
  valid_to        TEXT,
  superseded_by   INTEGER REFERENCES knowledge_graph(id) ON DELETE SET NULL,
  UNIQUE (workspace_id, subject, predicate, object, derived)
);
CREATE INDEX knowledge_graph_by_subject ON knowledge_graph (workspace_id, subject);
CREATE INDEX knowledge_graph_by_object ON knowledge_graph (workspace_id, object);
CREATE INDEX knowledge_graph_by_predicate ON knowledge_graph (workspace_id, predicate, status);

CREATE TABLE kg_evidence (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id   TEXT NOT NULL,
  edge_id        INTEGER NOT NULL REFERENCES knowledge_graph(id) ON DELETE CASCADE,
  chunk_id       INTEGER REFERENCES chunks(id) ON DELETE SET NULL,
  message_ids    TEXT NOT NULL DEFAULT '[]',
  polarity       INTEGER NOT NULL CHECK (polarity IN (-1, 1)),
  value_text     TEXT,
  value_numeric  REAL,
  value_unit     TEXT,
  temporal_scope TEXT,
  evidence_text  TEXT,
  source         TEXT NOT NULL DEFAULT 'extraction',
  prompt_version TEXT,
  observed_at    TEXT NOT NULL,
  created_at     TEXT NOT NULL
);
CREATE INDEX kg_evidence_by_edge ON kg_evidence (edge_id);
CREATE UNIQUE INDEX kg_evidence_once_per_chunk ON kg_evidence (edge_id, chunk_id, polarity) WHERE chunk_id IS NOT NULL;
CREATE INDEX kg_evidence_by_chunk ON kg_evidence (chunk_id);

CREATE TABLE behavioral_markers (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id TEXT NOT NULL,
  peer_id      TEXT,
  chunk_id     INTEGER REFERENCES chunks(id) ON DELETE SET NULL,
  kind         TEXT NOT NULL CHECK (kind IN ('correction', 'preference', 'rejection', 'style')),
  statement    TEXT NOT NULL,
  consolidated INTEGER NOT NULL DEFAULT 0,
  observed_at  TEXT NOT NULL,
  created_at   TEXT NOT NULL
);
CREATE UNIQUE INDEX behavioral_markers_once_per_chunk ON behavioral_markers (chunk_id, kind, statement) WHERE chunk_id IS NOT NULL;
CREATE INDEX behavioral_markers_pending ON behavioral_markers (workspace_id, consolidated);

CREATE TABLE profile_entries (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id  TEXT NOT NULL,
  peer_id       TEXT NOT NULL DEFAULT '',
  kind          TEXT NOT NULL,
  statement     TEXT NOT NULL,
  statement_key TEXT NOT NULL,
  pos_evidence  INTEGER NOT NULL DEFAULT 1,
  neg_evidence  INTEGER NOT NULL DEFAULT 0,
  first_seen    TEXT NOT NULL,
  last_seen     TEXT NOT NULL,
  UNIQUE (workspace_id, peer_id, kind, statement_key)
);

CREATE TABLE episodes (
  id           TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  session_id   TEXT NOT NULL,
  title        TEXT NOT NULL,
  summary      TEXT NOT NULL,
  outcome      TEXT,
  entities     TEXT NOT NULL DEFAULT '[]',
  chunk_ids    TEXT NOT NULL DEFAULT '[]',
  message_ids  TEXT NOT NULL DEFAULT '[]',
  started_at   TEXT NOT NULL,
  ended_at     TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL
);
CREATE INDEX episodes_by_session ON episodes (workspace_id, session_id);
CREATE VIRTUAL TABLE episodes_fts USING fts5(
  title, summary, content='episodes', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER episodes_fts_insert AFTER INSERT ON episodes BEGIN
  INSERT INTO episodes_fts(rowid, title, summary) VALUES (new.rowid, new.title, new.summary);
END;
CREATE TRIGGER episodes_fts_delete AFTER DELETE ON episodes BEGIN
  INSERT INTO episodes_fts(episodes_fts, rowid, title, summary) VALUES ('delete', old.rowid, old.title, old.summary);
END;
CREATE TRIGGER episodes_fts_update AFTER UPDATE OF title, summary ON episodes BEGIN
  INSERT INTO episodes_fts(episodes_fts, rowid, title, summary) VALUES ('delete', old.rowid, old.title, old.summary);
  INSERT INTO episodes_fts(rowid, title, summary) VALUES (new.rowid, new.title, new.summary);
END;

CREATE TABLE procedures (
  id           TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  session_id   TEXT NOT NULL,
  name         TEXT NOT NULL,
  description  TEXT NOT NULL,
  trigger_phrase TEXT,
  steps        TEXT NOT NULL DEFAULT '[]',
  steps_text   TEXT NOT NULL DEFAULT '',
  entities     TEXT NOT NULL DEFAULT '[]',
  chunk_ids    TEXT NOT NULL DEFAULT '[]',
  message_ids  TEXT NOT NULL DEFAULT '[]',
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL
);
CREATE INDEX procedures_by_session ON procedures (workspace_id, session_id);
CREATE VIRTUAL TABLE procedures_fts USING fts5(
  name, description, steps_text, content='procedures', content_rowid='rowid',
  tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER procedures_fts_insert AFTER INSERT ON procedures BEGIN
  INSERT INTO procedures_fts(rowid, name, description, steps_text) VALUES (new.rowid, new.name, new.description, new.steps_text);
END;
CREATE TRIGGER procedures_fts_delete AFTER DELETE ON procedures BEGIN
  INSERT INTO procedures_fts(procedures_fts, rowid, name, description, steps_text)
    VALUES ('delete', old.rowid, old.name, old.description, old.steps_text);
END;
CREATE TRIGGER procedures_fts_update AFTER UPDATE OF name, description, steps_text ON procedures BEGIN
  INSERT INTO procedures_fts(procedures_fts, rowid, name, description, steps_text)
    VALUES ('delete', old.rowid, old.name, old.description, old.steps_text);
  INSERT INTO procedures_fts(rowid, name, description, steps_text) VALUES (new.rowid, new.name, new.description, new.steps_text);
END;

CREATE TABLE extraction_feedback (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id TEXT NOT NULL,
  subject      TEXT NOT NULL,
  predicate    TEXT NOT NULL,
  object       TEXT NOT NULL,
  chunk_text   TEXT,
  reason       TEXT,
  created_at   TEXT NOT NULL
);
CREATE INDEX extraction_feedback_recent ON extraction_feedback (workspace_id, created_at);

CREATE TABLE notes (
  id               TEXT PRIMARY KEY,
  workspace_id     TEXT NOT NULL,
  description      TEXT NOT NULL,
  content          TEXT NOT NULL,
  importance       REAL NOT NULL DEFAULT 1,
  observer_id      TEXT,
  observed_id      TEXT,
  session_id       TEXT,
  level            TEXT NOT NULL DEFAULT 'explicit',
  source_ids       TEXT NOT NULL DEFAULT '[]',
  times_derived    INTEGER NOT NULL DEFAULT 1,
  metadata         TEXT NOT NULL DEFAULT '{}',
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL,
  last_accessed_at TEXT NOT NULL,
  archived_at      TEXT
);
CREATE INDEX notes_by_pair ON notes (workspace_id, observer_id, observed_id, created_at);
CREATE INDEX notes_by_access ON notes (workspace_id, archived_at, last_accessed_at);
CREATE VIRTUAL TABLE notes_fts USING fts5(
  description, content, content='notes', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
  INSERT INTO notes_fts(rowid, description, content) VALUES (new.rowid, new.description, new.content);
END;
CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
  INSERT INTO notes_fts(notes_fts, rowid, description, content) VALUES ('delete', old.rowid, old.description, old.content);
END;
CREATE TRIGGER notes_fts_update AFTER UPDATE OF description, content ON notes BEGIN
  INSERT INTO notes_fts(notes_fts, rowid, description, content) VALUES ('delete', old.rowid, old.description, old.content);
  INSERT INTO notes_fts(rowid, description, content) VALUES (new.rowid, new.description, new.content);
END;

-- Embedding vectors (Float32 little-endian BLOBs). These are the source of truth; the vec0 tables are an
-- index over them, rebuilt on reindex, and the JS cosine fallback scans them when sqlite-vec is missing.
CREATE TABLE chunk_embeddings (
  chunk_id     INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL,
  model        TEXT NOT NULL,
  text_hash    TEXT NOT NULL,
  vector       BLOB NOT NULL
);
CREATE INDEX chunk_embeddings_by_workspace ON chunk_embeddings (workspace_id);

CREATE TABLE edge_embeddings (
  text_key TEXT NOT NULL,
  model    TEXT NOT NULL,
  vector   BLOB NOT NULL,
  PRIMARY KEY (model, text_key)
);

CREATE TABLE episode_embeddings (
  episode_id   TEXT PRIMARY KEY REFERENCES episodes(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL,
  model        TEXT NOT NULL,
  text_hash    TEXT NOT NULL,
  vector       BLOB NOT NULL
);

CREATE TABLE note_embeddings (
  note_id      TEXT PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL,
  model        TEXT NOT NULL,
  text_hash    TEXT NOT NULL,
  vector       BLOB NOT NULL
);

CREATE TABLE vector_indexes (
  name       TEXT PRIMARY KEY,
  model      TEXT NOT NULL,
  dimensions INTEGER NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE run_lock (
  name         TEXT PRIMARY KEY,
  holder       TEXT NOT NULL,
  host         TEXT NOT NULL,
  pid          INTEGER NOT NULL,
  acquired_at  TEXT NOT NULL,
  heartbeat_at TEXT NOT NULL
);

CREATE TABLE dream_runs (
  id                INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id      TEXT NOT NULL,
  status            TEXT NOT NULL CHECK (status IN ('running', 'ok', 'skipped', 'failed', 'aborted')),
  skip_reason       TEXT,
  extractor         TEXT,
  prompt_version    TEXT,
  chunks_created    INTEGER NOT NULL DEFAULT 0,
  chunks_processed  INTEGER NOT NULL DEFAULT 0,
  edges_upserted    INTEGER NOT NULL DEFAULT 0,
  llm_calls         INTEGER NOT NULL DEFAULT 0,
  prompt_tokens     INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  counts            TEXT NOT NULL DEFAULT '{}',
  timings           TEXT NOT NULL DEFAULT '{}',
  errors            TEXT NOT NULL DEFAULT '[]',
  started_at        TEXT NOT NULL,
  finished_at       TEXT
);
CREATE INDEX dream_runs_recent ON dream_runs (workspace_id, started_at);

CREATE TABLE search_log (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id TEXT NOT NULL,
  surface      TEXT NOT NULL,
  query        TEXT NOT NULL,
  candidates   INTEGER NOT NULL DEFAULT 0,
  hits         INTEGER NOT NULL DEFAULT 0,
  top_score    REAL,
  latency_ms   REAL NOT NULL,
  created_at   TEXT NOT NULL
);
CREATE INDEX search_log_recent ON search_log (workspace_id, created_at);

CREATE TABLE peer_cards (
  workspace_id TEXT NOT NULL,
  observer_id  TEXT NOT NULL,
  observed_id  TEXT NOT NULL,
  card         TEXT NOT NULL DEFAULT '[]',
  updated_at   TEXT NOT NULL,
  PRIMARY KEY (workspace_id, observer_id, observed_id)
);

CREATE TABLE scopes (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  id           TEXT NOT NULL,
  metadata     TEXT NOT NULL DEFAULT '{}',
  created_at   TEXT NOT NULL,
  PRIMARY KEY (workspace_id, id)
);

CREATE TABLE scope_sessions (
  workspace_id TEXT NOT NULL,
  scope_id     TEXT NOT NULL,
  session_id   TEXT NOT NULL,
  joined_at    TEXT NOT NULL,
  PRIMARY KEY (workspace_id, scope_id, session_id),
  FOREIGN KEY (workspace_id, scope_id) REFERENCES scopes(workspace_id, id) ON DELETE CASCADE
);

CREATE TABLE llm_cache (
  key        TEXT PRIMARY KEY,
  model      TEXT NOT NULL,
  response   TEXT NOT NULL,
  usage      TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL
);
`
