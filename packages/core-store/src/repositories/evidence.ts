import type { Selectable } from 'kysely'
import type { KgEvidenceTable } from '../schema/tables'
import { StoreError } from '../store/errors'
import { parseArray } from './json'
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

/** Evidence rows of graph edges (`kg_evidence`): which chunk and messages supported or contradicted an edge. */
export interface EvidenceRepository {
  /** Every evidence row of one edge, for and against, oldest observation first. */
  forEdge(workspaceId: string, edgeId: number): Promise<Evidence[]>
}

export function createEvidenceRepository(scope: RepositoryScope): EvidenceRepository {
  const { db } = scope
  return {
    async forEdge(workspaceId, edgeId) {
      if (!Number.isInteger(edgeId)) throw new StoreError('INVALID_INPUT', 'an edge id must be an integer')
      const rows = await db
        .selectFrom('kg_evidence')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('edge_id', '=', edgeId)
        .orderBy('observed_at')
        .orderBy('id')
        .execute()
      return rows.map(toEvidence)
    },
  }
}
