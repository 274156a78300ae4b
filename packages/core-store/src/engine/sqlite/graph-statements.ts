import type { Selectable } from 'kysely'
import type { KnowledgeGraphTable } from '../../kernel/tables'
import type { EvidenceRow } from '../../repositories/evidence'
import type { StatementCache } from '../types'

/*
 * SQLite-only: the statements extraction runs for every triple of every chunk, as cached prepared
 * statements. Building and compiling them with kysely on each call costs more than running them. The caller
 * holds the connection (`scope.read` / `scope.write`).
 */

const SELECT_EDGE_BY_KEY =
  'SELECT * FROM knowledge_graph WHERE workspace_id = ? AND subject = ? AND predicate = ? AND object = ? AND derived = ?'

const INSERT_EVIDENCE = `INSERT INTO kg_evidence (workspace_id, edge_id, chunk_id, message_ids, polarity, value_text,
  value_numeric, value_unit, temporal_scope, evidence_text, source, prompt_version, observed_at, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`

const COUNT_EVIDENCE = 'SELECT polarity, COUNT(*) AS n FROM kg_evidence WHERE edge_id = ? GROUP BY polarity'

const DELETE_DECAY_MARK = `DELETE FROM kg_evidence
  WHERE edge_id = ? AND chunk_id = ? AND polarity = -1 AND source = 'decay' AND workspace_id = ?`

/** The edge row of a triple, direct or derived. */
export function _selectEdgeByKeySqlite(
  statements: StatementCache,
  workspaceId: string,
  key: { subject: string; predicate: string; object: string; derived: boolean },
): Selectable<KnowledgeGraphTable> | undefined {
  return statements
    .prepare(SELECT_EDGE_BY_KEY)
    .get(workspaceId, key.subject, key.predicate, key.object, key.derived ? 1 : 0) as
    | Selectable<KnowledgeGraphTable>
    | undefined
}

/** Inserts one evidence row unless its (edge, chunk, polarity) exists; true when inserted. */
export function _insertEvidenceSqlite(statements: StatementCache, row: EvidenceRow): boolean {
  const result = statements
    .prepare(INSERT_EVIDENCE)
    .run(
      row.workspace_id,
      row.edge_id,
      row.chunk_id,
      row.message_ids,
      row.polarity,
      row.value_text,
      row.value_numeric,
      row.value_unit,
      row.temporal_scope,
      row.evidence_text,
      row.source,
      row.prompt_version,
      row.observed_at,
      row.created_at,
    )
  return result.changes === 1
}

/** Evidence rows of an edge, for and against. */
export function _countEvidenceSqlite(
  statements: StatementCache,
  edgeId: number,
): { pos: number; neg: number } {
  const rows = statements.prepare(COUNT_EVIDENCE).all(edgeId) as { polarity: number; n: number }[]
  return {
    pos: rows.find((r) => r.polarity === 1)?.n ?? 0,
    neg: rows.find((r) => r.polarity === -1)?.n ?? 0,
  }
}

/**
 * Writes an edge's counters, confidence and `columns` (names from a fixed set, never user input) in one
 * update; one cached statement per set of columns.
 */
export function _updateEdgeCountsSqlite(
  statements: StatementCache,
  workspaceId: string,
  edgeId: number,
  columns: Readonly<Record<string, string | number | null>>,
  counts: { pos: number; neg: number; confidence: number },
): void {
  const names = Object.keys(columns)
  const set = [...names, 'pos_evidence', 'neg_evidence', 'confidence'].map((c) => `${c} = ?`).join(', ')
  statements
    .prepare(`UPDATE knowledge_graph SET ${set} WHERE id = ? AND workspace_id = ?`)
    .run(...names.map((n) => columns[n]), counts.pos, counts.neg, counts.confidence, edgeId, workspaceId)
}

/** Removes the decay mark a chunk left against an edge. */
export function _deleteDecayMarkSqlite(
  statements: StatementCache,
  workspaceId: string,
  edgeId: number,
  chunkId: number,
): void {
  statements.prepare(DELETE_DECAY_MARK).run(edgeId, chunkId, workspaceId)
}
