/**
 * Forgetting and the second clock of a fact.
 *
 * `purges` records every deletion request (a session, a workspace, messages, a peer's messages, a note, a
 * fact) from the moment it is accepted until its content is gone from disk, so a crash mid-purge is
 * finished at the next start. The row holds ids and counts, never content: it is the deletion receipt.
 *
 * `knowledge_graph.learned_at` is when HyMem learned a fact: the creation time of its first supporting
 * evidence row (written by the dream that extracted it). `valid_from` stays the time the fact became true in
 * the conversation. A trigger keeps `learned_at` set for new edges; existing edges are backfilled.
 */
export const MIGRATION_0004_PURGES_AND_LEARNED_AT = `
CREATE TABLE purges (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id    TEXT NOT NULL,
  kind            TEXT NOT NULL
                  CHECK (kind IN ('workspace', 'session', 'messages', 'peer-messages', 'note', 'fact')),
  target          TEXT NOT NULL DEFAULT '',
  message_ids     TEXT NOT NULL DEFAULT '[]',
  status          TEXT NOT NULL DEFAULT 'requested' CHECK (status IN ('requested', 'rows-removed', 'done')),
  removed         TEXT NOT NULL DEFAULT '{}',
  requested_at    TEXT NOT NULL,
  rows_removed_at TEXT,
  finished_at     TEXT
);
CREATE INDEX purges_by_workspace ON purges (workspace_id, requested_at);
CREATE INDEX purges_unfinished ON purges (status) WHERE status <> 'done';

ALTER TABLE knowledge_graph ADD COLUMN learned_at TEXT;
UPDATE knowledge_graph SET learned_at = coalesce(
  (SELECT min(e.created_at) FROM kg_evidence e WHERE e.edge_id = knowledge_graph.id AND e.polarity = 1),
  first_seen
);
CREATE TRIGGER knowledge_graph_learned_at AFTER INSERT ON kg_evidence
WHEN new.polarity = 1 BEGIN
  UPDATE knowledge_graph SET learned_at = new.created_at WHERE id = new.edge_id AND learned_at IS NULL;
END;
CREATE INDEX knowledge_graph_by_learned ON knowledge_graph (workspace_id, learned_at);
`
