import { StoreError } from '../kernel/errors'
import type { KnowledgeGraphTable } from '../kernel/tables'
import { requireInteger, requireNumber, requireText } from './checks'
import { edgeConfidence } from './edge-confidence'
import {
  type Edge,
  type EdgeCounts,
  type EdgePatch,
  type ImportedEdge,
  type NewEdge,
  requireStatus,
  requireTriple,
  type Triple,
  toEdge,
} from './edge-model'
import { requireId } from './json'
import type { RepositoryScope } from './scope'

/** Writes to the knowledge graph (`knowledge_graph`). */
export interface EdgeWrites {
  /** Inserts one edge as given (no canonicalisation, no merge with an existing triple). */
  insert(workspaceId: string, edge: NewEdge): Promise<Edge>
  /**
   * Stores an edge as given (an import; the workspace must exist) with no supersede link. Returns its id, or
   * null when the workspace already has this triple and derivation (left untouched).
   */
  insertIfAbsent(edge: ImportedEdge): Promise<number | null>
  /** Links an edge to the edge that superseded it (null clears the link), leaving its status as it is. */
  setSupersededBy(workspaceId: string, id: number, supersededBy: number | null): Promise<void>
  /** Deletes every derived edge of the workspace (and, by cascade, their evidence); returns how many. */
  deleteDerived(workspaceId: string): Promise<number>
  /**
   * Recomputes an edge's evidence counters and Laplace confidence from its evidence rows (so a counter never
   * drifts from the rows it counts) and writes `patch` in the same update.
   */
  recount(workspaceId: string, edgeId: number, patch?: EdgePatch): Promise<EdgeCounts>
  /**
   * Closes an active edge's validity at `validTo` in favour of `winnerId` (status `stale`); the edge stays as
   * history. False when it was not active.
   */
  supersede(
    workspaceId: string,
    edgeId: number,
    change: { winnerId: number; validTo: string },
  ): Promise<boolean>
  /** Sets an edge's status to `retracted`; returns its triple. */
  retract(workspaceId: string, edgeId: number): Promise<Triple>
}

const PATCH_COLUMNS = {
  firstSeen: 'first_seen',
  lastSeen: 'last_seen',
  lastReinforced: 'last_reinforced',
  validFrom: 'valid_from',
  status: 'status',
  validTo: 'valid_to',
  supersededBy: 'superseded_by',
} as const satisfies Record<keyof EdgePatch, keyof KnowledgeGraphTable>

export function patchColumns(patch: EdgePatch): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {}
  for (const [key, value] of Object.entries(patch)) {
    const column = PATCH_COLUMNS[key as keyof EdgePatch]
    if (column === undefined) throw new StoreError('INVALID_INPUT', `unknown edge field ${key}`)
    if (value === undefined) continue
    if (key === 'supersededBy') {
      if (value !== null) requireInteger(value, key)
    } else if (key === 'validTo') {
      if (value !== null) requireText(value, key)
    } else if (key === 'status') requireStatus(value)
    else requireText(value, key)
    out[column] = value as string | number | null
  }
  return out
}

export function createEdgeWrites(scope: RepositoryScope): EdgeWrites {
  const { db, context } = scope
  return {
    async insert(workspaceId, edge) {
      requireId(workspaceId, 'workspace id')
      const triple = requireTriple(edge)
      const seen = edge.seenAt === undefined ? context.now() : requireText(edge.seenAt, 'seenAt')
      if (edge.status !== undefined) requireStatus(edge.status)
      const values = {
        workspace_id: workspaceId,
        ...triple,
        ...(edge.confidence !== undefined
          ? { confidence: requireNumber(edge.confidence, 'confidence') }
          : {}),
        ...(edge.posEvidence !== undefined
          ? { pos_evidence: requireInteger(edge.posEvidence, 'posEvidence') }
          : {}),
        ...(edge.negEvidence !== undefined
          ? { neg_evidence: requireInteger(edge.negEvidence, 'negEvidence') }
          : {}),
        ...(edge.status !== undefined ? { status: edge.status } : {}),
        derived: edge.derived ? 1 : 0,
        first_seen: seen,
        last_seen: seen,
        last_reinforced:
          edge.lastReinforced === undefined ? seen : requireText(edge.lastReinforced, 'lastReinforced'),
        valid_from: edge.validFrom === undefined ? seen : requireText(edge.validFrom, 'validFrom'),
        valid_to:
          edge.validTo === undefined || edge.validTo === null ? null : requireText(edge.validTo, 'validTo'),
      }
      const row = await db
        .insertInto('knowledge_graph')
        .values(values)
        .returningAll()
        .executeTakeFirstOrThrow()
      return toEdge(row)
    },
    async insertIfAbsent(edge) {
      requireId(edge.workspaceId, 'workspace id')
      for (const field of ['subject', 'predicate', 'object'] as const) requireId(edge[field], field)
      requireStatus(edge.status)
      const values = {
        workspace_id: edge.workspaceId,
        subject: edge.subject,
        predicate: edge.predicate,
        object: edge.object,
        derived: edge.derived ? 1 : 0,
        pos_evidence: edge.posEvidence,
        neg_evidence: edge.negEvidence,
        confidence: edge.confidence,
        status: edge.status,
        first_seen: edge.firstSeen,
        last_seen: edge.lastSeen,
        last_reinforced: edge.lastReinforced,
        valid_from: edge.validFrom,
        valid_to: edge.validTo,
        learned_at: edge.learnedAt ?? null,
      }
      const row = await scope.write((tx) =>
        tx
          .insertInto('knowledge_graph')
          .values(values)
          .onConflict((oc) => oc.doNothing())
          .returning('id')
          .executeTakeFirst(),
      )
      return row ? row.id : null
    },
    async setSupersededBy(workspaceId, id, supersededBy) {
      requireId(workspaceId, 'workspace id')
      requireInteger(id, 'edge id')
      if (supersededBy !== null) requireInteger(supersededBy, 'supersededBy')
      await scope.write((tx) =>
        tx
          .updateTable('knowledge_graph')
          .set({ superseded_by: supersededBy })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .execute(),
      )
    },
    async deleteDerived(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const result = await db
        .deleteFrom('knowledge_graph')
        .where('workspace_id', '=', workspaceId)
        .where('derived', '=', 1)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
    async recount(workspaceId, edgeId, patch = {}) {
      requireId(workspaceId, 'workspace id')
      requireInteger(edgeId, 'edge id')
      const columns = patchColumns(patch)
      // Where rows lock, the edge row is locked first: two writers recounting one edge never store a stale count.
      return scope.write(async (tx) => {
        await tx
          .selectFrom('knowledge_graph')
          .select('id')
          .where('id', '=', edgeId)
          .where('workspace_id', '=', workspaceId)
          .$if(scope.engine.rowLocks, (query) => query.forUpdate())
          .execute()
        const counts = await tx
          .selectFrom('kg_evidence')
          .select(['polarity', (eb) => eb.fn.countAll().as('n')])
          .where('edge_id', '=', edgeId)
          .where('workspace_id', '=', workspaceId)
          .groupBy('polarity')
          .execute()
        const pos = Number(counts.find((row) => row.polarity === 1)?.n ?? 0)
        const neg = Number(counts.find((row) => row.polarity === -1)?.n ?? 0)
        const confidence = edgeConfidence(pos, neg)
        await tx
          .updateTable('knowledge_graph')
          .set({ ...columns, pos_evidence: pos, neg_evidence: neg, confidence })
          .where('id', '=', edgeId)
          .where('workspace_id', '=', workspaceId)
          .execute()
        return { posEvidence: pos, negEvidence: neg, confidence }
      })
    },
    async supersede(workspaceId, edgeId, change) {
      requireId(workspaceId, 'workspace id')
      requireInteger(edgeId, 'edge id')
      const winnerId = requireInteger(change.winnerId, 'winnerId')
      const validTo = requireText(change.validTo, 'validTo')
      const result = await db
        .updateTable('knowledge_graph')
        .set({ status: 'stale', valid_to: validTo, superseded_by: winnerId })
        .where('id', '=', edgeId)
        .where('workspace_id', '=', workspaceId)
        .where('status', '=', 'active')
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async retract(workspaceId, edgeId) {
      requireId(workspaceId, 'workspace id')
      requireInteger(edgeId, 'edge id')
      const row = await db
        .updateTable('knowledge_graph')
        .set({ status: 'retracted' })
        .where('id', '=', edgeId)
        .where('workspace_id', '=', workspaceId)
        .returning(['subject', 'predicate', 'object'])
        .executeTakeFirst()
      if (!row) throw new StoreError('NOT_FOUND', `edge ${edgeId} not found in workspace ${workspaceId}`)
      return row
    },
  }
}
