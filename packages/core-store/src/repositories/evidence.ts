import type { Selectable } from 'kysely'
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

/** Evidence as a dump carries it: everything but its id. */
export type ImportedEvidence = Omit<Evidence, 'id'>

/** Evidence rows of graph edges (`kg_evidence`): which chunk and messages supported or contradicted an edge. */
export interface EvidenceRepository {
  /** The evidence of these edges of the workspace, by edge, then oldest observation first. */
  forEdges(workspaceId: string, edgeIds: readonly number[]): Promise<Evidence[]>
  /** Stores one piece of evidence as given (an import); the edge must exist. */
  insert(evidence: ImportedEvidence): Promise<void>
  /** Every evidence row of one edge, for and against, oldest observation first. */
  forEdge(workspaceId: string, edgeId: number): Promise<Evidence[]>
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
    async insert(evidence) {
      requireId(evidence.workspaceId, 'workspace id')
      if (!evidence.messageIds.every((id) => Number.isInteger(id)))
        throw new StoreError('INVALID_INPUT', 'messageIds must be integer message ids')
      if (evidence.polarity !== 1 && evidence.polarity !== -1)
        throw new StoreError('INVALID_INPUT', 'polarity must be 1 or -1')
      const values = {
        workspace_id: evidence.workspaceId,
        edge_id: evidence.edgeId,
        chunk_id: evidence.chunkId,
        message_ids: JSON.stringify(evidence.messageIds),
        polarity: evidence.polarity,
        value_text: evidence.valueText,
        value_numeric: evidence.valueNumeric,
        value_unit: evidence.valueUnit,
        temporal_scope: evidence.temporalScope,
        evidence_text: evidence.evidenceText,
        source: evidence.source,
        prompt_version: evidence.promptVersion,
        observed_at: evidence.observedAt,
        created_at: evidence.createdAt,
      }
      await scope.write((tx) => tx.insertInto('kg_evidence').values(values).execute())
    },
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
