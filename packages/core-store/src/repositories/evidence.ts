import { type Selectable, sql } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { KgEvidenceTable } from '../kernel/tables'
import { optionalText, requireInteger, requireIntegers, requireText } from './checks'
import { parseArray, requireId } from './json'
import type { RepositoryScope } from './scope'
import { selectInWorkspace } from './workspace-rows'

/** One piece of evidence for (polarity 1) or against (polarity -1) an edge. */
export interface Evidence {
  readonly id: number
  readonly workspaceId: string
  readonly edgeId: number
  readonly chunkId: number | null
  /** `messages.id` the evidence came from. */
  readonly messageIds: readonly number[]
  readonly polarity: number
  readonly valueText: string | null
  readonly valueNumeric: number | null
  readonly valueUnit: string | null
  readonly temporalScope: string | null
  readonly evidenceText: string | null
  readonly source: string
  readonly promptVersion: string | null
  readonly observedAt: string
  readonly createdAt: string
}

export function toEvidence(row: Selectable<KgEvidenceTable>): Evidence {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    edgeId: row.edge_id,
    chunkId: row.chunk_id,
    messageIds: parseArray<number>(row.message_ids),
    polarity: row.polarity,
    valueText: row.value_text,
    valueNumeric: row.value_numeric,
    valueUnit: row.value_unit,
    temporalScope: row.temporal_scope,
    evidenceText: row.evidence_text,
    source: row.source,
    promptVersion: row.prompt_version,
    observedAt: row.observed_at,
    createdAt: row.created_at,
  }
}

/** A new piece of evidence for (polarity 1) or against (polarity -1) an edge. */
export interface NewEvidence {
  readonly edgeId: number
  readonly chunkId?: number | null
  readonly messageIds?: readonly number[]
  /** 1 supports the edge, -1 contradicts it. @default 1 */
  readonly polarity?: 1 | -1
  readonly valueText?: string | null
  readonly valueNumeric?: number | null
  readonly valueUnit?: string | null
  readonly temporalScope?: string | null
  readonly evidenceText?: string | null
  /** Where it came from: `extraction`, `decay`, `inference`, ... @default 'extraction' */
  readonly source?: string
  readonly promptVersion?: string | null
  /** When it was stated (its messages' time). @default now */
  readonly observedAt?: string
  /** When it was recorded (an import keeps the dump's). @default now */
  readonly createdAt?: string
}

/** Evidence rows of graph edges (`kg_evidence`): which chunk and messages supported or contradicted an edge. */
export interface EvidenceRepository {
  /** The evidence of these edges of the workspace, by edge, then oldest observation first. */
  forEdges(workspaceId: string, edgeIds: readonly number[]): Promise<Evidence[]>
  /**
   * The source messages of each edge: every evidence row's own message ids plus those of its chunk, sorted
   * and de-duplicated. Edges without evidence are absent from the map.
   */
  sourceMessageIds(workspaceId: string, edgeIds: readonly number[]): Promise<Map<number, number[]>>
  /**
   * Adds one piece of evidence. Evidence from a chunk is kept once per (edge, chunk, polarity): false when
   * this chunk had already given it (a replay).
   */
  add(workspaceId: string, evidence: NewEvidence): Promise<boolean>
  /** Adds many pieces of evidence in multi-row inserts (once per edge, chunk and polarity); returns how many were new. */
  addMany(workspaceId: string, evidence: readonly NewEvidence[]): Promise<number>
  /** Removes the `decay` mark a chunk left against an edge (the chunk has since evidenced it). */
  removeDecayMark(workspaceId: string, edgeId: number, chunkId: number): Promise<void>
  /** The text of the chunk behind the edge's most recent supporting evidence, or null. */
  latestSupportText(workspaceId: string, edgeId: number): Promise<string | null>
  /** The `messages.id` behind the supporting evidence of `edgeIds`, unique and ascending. */
  supportingMessageIds(workspaceId: string, edgeIds: readonly number[]): Promise<number[]>
  /** (edge, chunk) pairs where a chunk supports an active edge; each pair once. */
  listActiveSupport(workspaceId: string): Promise<{ edgeId: number; chunkId: number }[]>
  /** Every evidence row of one edge, for and against, oldest observation first. */
  forEdge(workspaceId: string, edgeId: number): Promise<Evidence[]>
}

/** Rows per multi-row insert (SQLite binds 14 values a row). */
const INSERT_BATCH = 500
/** The `kg_evidence` row of `evidence`, checked; every column given. */
export type EvidenceRow = ReturnType<typeof evidenceRow>

/** Checks `evidence` and returns the `kg_evidence` row it becomes (defaults filled from `now`). */
export function evidenceRow(workspaceId: string, evidence: NewEvidence, now: string) {
  requireInteger(evidence.edgeId, 'edgeId')
  const chunkId = evidence.chunkId ?? null
  if (chunkId !== null) requireInteger(chunkId, 'chunkId')
  const polarity = evidence.polarity ?? 1
  if (polarity !== 1 && polarity !== -1) throw new StoreError('INVALID_INPUT', 'polarity must be 1 or -1')
  const valueNumeric = evidence.valueNumeric ?? null
  if (valueNumeric !== null && (typeof valueNumeric !== 'number' || !Number.isFinite(valueNumeric)))
    throw new StoreError('INVALID_INPUT', 'valueNumeric must be a finite number or null')
  return {
    workspace_id: workspaceId,
    edge_id: evidence.edgeId,
    chunk_id: chunkId,
    message_ids: JSON.stringify(requireIntegers(evidence.messageIds ?? [], 'messageIds')),
    polarity,
    value_text: optionalText(evidence.valueText, 'valueText'),
    value_numeric: valueNumeric,
    value_unit: optionalText(evidence.valueUnit, 'valueUnit'),
    temporal_scope: optionalText(evidence.temporalScope, 'temporalScope'),
    evidence_text: optionalText(evidence.evidenceText, 'evidenceText'),
    source: evidence.source === undefined ? 'extraction' : requireText(evidence.source, 'source'),
    prompt_version: optionalText(evidence.promptVersion, 'promptVersion'),
    observed_at: evidence.observedAt === undefined ? now : requireText(evidence.observedAt, 'observedAt'),
    created_at: evidence.createdAt === undefined ? now : requireText(evidence.createdAt, 'createdAt'),
  }
}

export function createEvidenceRepository(scope: RepositoryScope): EvidenceRepository {
  const { db, context } = scope
  return {
    async forEdges(workspaceId, edgeIds) {
      requireId(workspaceId, 'workspace id')
      requireIntegers(edgeIds, 'edgeIds')
      if (edgeIds.length === 0) return []
      const rows = await selectInWorkspace(db, 'kg_evidence', workspaceId)
        .where(scope.engine.inIdList('edge_id', edgeIds))
        .orderBy('edge_id')
        .orderBy('observed_at')
        .orderBy('id')
        .execute()
      return rows.map(toEvidence)
    },
    async sourceMessageIds(workspaceId, edgeIds) {
      requireId(workspaceId, 'workspace id')
      const out = new Map<number, number[]>()
      if (edgeIds.length === 0) return out
      const { rows } = await sql<{ edge_id: number; message_ids: string; chunk_message_ids: string | null }>`
        SELECT e.edge_id, e.message_ids, c.message_ids AS chunk_message_ids
        FROM kg_evidence e LEFT JOIN chunks c ON c.id = e.chunk_id
        WHERE ${scope.engine.inIdList('e.edge_id', edgeIds)}
          AND e.workspace_id = ${workspaceId}`.execute(db)
      const sets = new Map<number, Set<number>>()
      for (const row of rows) {
        let set = sets.get(row.edge_id)
        if (!set) {
          set = new Set()
          sets.set(row.edge_id, set)
        }
        for (const id of integerIds(row.message_ids)) set.add(id)
        for (const id of integerIds(row.chunk_message_ids)) set.add(id)
      }
      for (const [edgeId, set] of sets)
        out.set(
          edgeId,
          [...set].sort((a, b) => a - b),
        )
      return out
    },
    async add(workspaceId, evidence) {
      requireId(workspaceId, 'workspace id')
      const row = evidenceRow(workspaceId, evidence, context.now())
      const result = await scope.write((tx) =>
        tx
          .insertInto('kg_evidence')
          .values(row)
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst(),
      )
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1
    },
    async addMany(workspaceId, evidence) {
      requireId(workspaceId, 'workspace id')
      const now = context.now()
      const rows = evidence.map((e) => evidenceRow(workspaceId, e, now))
      if (rows.length === 0) return 0
      return scope.write(async (tx) => {
        let added = 0
        for (let at = 0; at < rows.length; at += INSERT_BATCH) {
          const result = await tx
            .insertInto('kg_evidence')
            .values(rows.slice(at, at + INSERT_BATCH))
            .onConflict((oc) => oc.doNothing())
            .executeTakeFirst()
          added += Number(result.numInsertedOrUpdatedRows ?? 0)
        }
        return added
      })
    },
    async removeDecayMark(workspaceId, edgeId, chunkId) {
      requireId(workspaceId, 'workspace id')
      requireInteger(edgeId, 'edge id')
      requireInteger(chunkId, 'chunk id')
      await scope.write((tx) =>
        tx
          .deleteFrom('kg_evidence')
          .where('edge_id', '=', edgeId)
          .where('chunk_id', '=', chunkId)
          .where('polarity', '=', -1)
          .where('source', '=', 'decay')
          .where('workspace_id', '=', workspaceId)
          .execute(),
      )
    },
    async latestSupportText(workspaceId, edgeId) {
      requireId(workspaceId, 'workspace id')
      requireInteger(edgeId, 'edge id')
      const row = await db
        .selectFrom('kg_evidence')
        .innerJoin('chunks', 'chunks.id', 'kg_evidence.chunk_id')
        .select('chunks.text')
        .where('kg_evidence.edge_id', '=', edgeId)
        .where('kg_evidence.workspace_id', '=', workspaceId)
        .where('kg_evidence.polarity', '=', 1)
        .orderBy('kg_evidence.observed_at', 'desc')
        .limit(1)
        .executeTakeFirst()
      return row?.text ?? null
    },
    async supportingMessageIds(workspaceId, edgeIds) {
      requireId(workspaceId, 'workspace id')
      requireIntegers(edgeIds, 'edgeIds')
      if (edgeIds.length === 0) return []
      const rows = await db
        .selectFrom('kg_evidence')
        .select('message_ids')
        .where('edge_id', 'in', edgeIds)
        .where('workspace_id', '=', workspaceId)
        .where('polarity', '=', 1)
        .execute()
      const ids = new Set<number>()
      for (const row of rows) for (const id of parseArray<number>(row.message_ids)) ids.add(id)
      return [...ids].sort((a, b) => a - b)
    },
    async listActiveSupport(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await db
        .selectFrom('kg_evidence as ev')
        .innerJoin('knowledge_graph as kg', 'kg.id', 'ev.edge_id')
        .select(['ev.edge_id', 'ev.chunk_id'])
        .distinct()
        .where('kg.workspace_id', '=', workspaceId)
        .where('kg.status', '=', 'active')
        .where('ev.polarity', '=', 1)
        .where('ev.chunk_id', 'is not', null)
        .execute()
      return rows.map((row) => ({ edgeId: row.edge_id, chunkId: row.chunk_id as number }))
    },
    async forEdge(workspaceId, edgeId) {
      requireId(workspaceId, 'workspace id')
      requireInteger(edgeId, 'edge id')
      const rows = await selectInWorkspace(db, 'kg_evidence', workspaceId)
        .where('edge_id', '=', edgeId)
        .orderBy('observed_at')
        .orderBy('id')
        .execute()
      return rows.map(toEvidence)
    },
  }
}

/** The integer entries of a JSON id list; anything malformed yields none. */
function integerIds(text: string | null): number[] {
  if (!text) return []
  try {
    return parseArray(text).filter((id): id is number => Number.isInteger(id))
  } catch {
    return []
  }
}
