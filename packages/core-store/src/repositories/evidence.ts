import { type Selectable, sql } from 'kysely'
import type { KgEvidenceTable } from '../schema/tables'
import { StoreError } from '../store/errors'
import { parseArray, requireId } from './json'
import type { RepositoryScope } from './scope'

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

/** A new evidence row; omitted fields take the defaults below (an import gives them all). */
export interface NewEvidence {
  readonly edgeId: number
  readonly chunkId?: number | null
  /** `messages.id` the evidence came from. */
  readonly messageIds?: readonly number[]
  /** 1 supports the edge, -1 contradicts it. @default 1 */
  readonly polarity?: 1 | -1
  readonly valueText?: string | null
  readonly valueNumeric?: number | null
  readonly valueUnit?: string | null
  readonly temporalScope?: string | null
  readonly evidenceText?: string | null
  /** @default 'extraction' */
  readonly source?: string
  readonly promptVersion?: string | null
  /** @default now */
  readonly observedAt?: string
  /** @default observedAt */
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
  /** Stores one piece of evidence; its edge must exist. */
  insert(workspaceId: string, evidence: NewEvidence): Promise<Evidence>
}

const IN_LIST_CHUNK = 500

export function createEvidenceRepository(scope: RepositoryScope): EvidenceRepository {
  const { db } = scope
  return {
    async forEdges(workspaceId, edgeIds) {
      const out: Evidence[] = []
      for (let start = 0; start < edgeIds.length; start += IN_LIST_CHUNK) {
        const rows = await db
          .selectFrom('kg_evidence')
          .selectAll()
          .where('workspace_id', '=', workspaceId)
          .where('edge_id', 'in', edgeIds.slice(start, start + IN_LIST_CHUNK))
          .orderBy('edge_id')
          .orderBy('observed_at')
          .orderBy('id')
          .execute()
        out.push(...rows.map(toEvidence))
      }
      return out
    },
    async sourceMessageIds(workspaceId, edgeIds) {
      requireId(workspaceId, 'workspace id')
      const out = new Map<number, number[]>()
      if (edgeIds.length === 0) return out
      const { rows } = await sql<{ edge_id: number; message_ids: string; chunk_message_ids: string | null }>`
        SELECT e.edge_id, e.message_ids, c.message_ids AS chunk_message_ids
        FROM kg_evidence e LEFT JOIN chunks c ON c.id = e.chunk_id
        WHERE e.edge_id IN (SELECT value FROM json_each(${JSON.stringify(edgeIds)}))
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
    async insert(workspaceId, evidence) {
      requireId(workspaceId, 'workspace id')
      if (!Number.isSafeInteger(evidence.edgeId))
        throw new StoreError('INVALID_INPUT', 'evidence needs an integer edgeId')
      const messageIds = evidence.messageIds ?? []
      if (!messageIds.every((id) => Number.isInteger(id)))
        throw new StoreError('INVALID_INPUT', 'messageIds must be integer message ids')
      const polarity = evidence.polarity ?? 1
      if (polarity !== 1 && polarity !== -1) throw new StoreError('INVALID_INPUT', 'polarity must be 1 or -1')
      const observedAt = evidence.observedAt ?? scope.context.now()
      const row = await db
        .insertInto('kg_evidence')
        .values({
          workspace_id: workspaceId,
          edge_id: evidence.edgeId,
          chunk_id: evidence.chunkId ?? null,
          message_ids: JSON.stringify(messageIds),
          polarity,
          value_text: evidence.valueText ?? null,
          value_numeric: evidence.valueNumeric ?? null,
          value_unit: evidence.valueUnit ?? null,
          temporal_scope: evidence.temporalScope ?? null,
          evidence_text: evidence.evidenceText ?? null,
          ...(evidence.source !== undefined ? { source: evidence.source } : {}),
          prompt_version: evidence.promptVersion ?? null,
          observed_at: observedAt,
          created_at: evidence.createdAt ?? observedAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return toEvidence(row)
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
