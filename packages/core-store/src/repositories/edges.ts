import type { Kysely, Selectable } from 'kysely'
import { edgeConfidence } from '../canonical/merge'
import type { EdgeStatus, HyMemDatabase, KnowledgeGraphTable } from '../schema/tables'
import { StoreError } from '../store/errors'
import { requireInteger, requireText } from './checks'
import { _countEvidenceSqlite, _selectDirectEdgeSqlite, _updateEdgeCountsSqlite } from './graph-statements'
import { parseArray, requireId } from './json'
import type { RepositoryScope } from './scope'

/** One edge of the knowledge graph: a typed fact with its evidence counts and validity window. */
export interface Edge {
  readonly id: number
  readonly workspaceId: string
  readonly subject: string
  readonly predicate: string
  readonly object: string
  readonly posEvidence: number
  readonly negEvidence: number
  readonly confidence: number
  readonly status: EdgeStatus
  /** True for edges written by inference (recomputed from scratch each dream). */
  readonly derived: boolean
  readonly firstSeen: string
  readonly lastSeen: string
  readonly lastReinforced: string
  readonly validFrom: string
  /** Set when a newer fact superseded this one. */
  readonly validTo: string | null
  readonly supersededBy: number | null
}

export function toEdge(row: Selectable<KnowledgeGraphTable>): Edge {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    subject: row.subject,
    predicate: row.predicate,
    object: row.object,
    posEvidence: row.pos_evidence,
    negEvidence: row.neg_evidence,
    confidence: row.confidence,
    status: row.status,
    derived: row.derived === 1,
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
    lastReinforced: row.last_reinforced,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    supersededBy: row.superseded_by,
  }
}

/** A subject–predicate–object triple. */
export interface Triple {
  readonly subject: string
  readonly predicate: string
  readonly object: string
}

/** Edge fields written together with recounted evidence counters. */
export interface EdgePatch {
  readonly firstSeen?: string
  readonly lastSeen?: string
  readonly lastReinforced?: string
  readonly validFrom?: string
  readonly status?: EdgeStatus
  readonly validTo?: string | null
  readonly supersededBy?: number | null
}

/** Evidence counters and the Laplace confidence recomputed from an edge's evidence rows. */
export interface EdgeCounts {
  readonly posEvidence: number
  readonly negEvidence: number
  readonly confidence: number
}

/** A new edge; omitted evidence counts, confidence and status take the column defaults. */
export interface NewEdge {
  readonly subject: string
  readonly predicate: string
  readonly object: string
  readonly confidence?: number
  readonly posEvidence?: number
  readonly negEvidence?: number
  readonly status?: EdgeStatus
  readonly derived?: boolean
  /** First seen, last seen, last reinforced and (unless given) valid from. @default now */
  readonly seenAt?: string
  readonly validFrom?: string
  readonly validTo?: string | null
}

/** A derived (inferred) edge; it is first and last seen now. */
export interface NewDerivedEdge extends Triple {
  readonly confidence: number
  readonly lastReinforced: string
  readonly validFrom: string
}

/** A chunk that mentions an edge's subject or object without evidencing the edge. */
export interface SoftContradiction {
  readonly edgeId: number
  readonly chunkId: number
  /** The chunk's `messages.id`. */
  readonly messageIds: readonly number[]
  readonly occurredAt: string
}

/** Edges of the knowledge graph (`knowledge_graph`), including derived (inferred) edges and validity/supersede links. */
export interface EdgesRepository {
  /** Every edge of the workspace, ordered by subject, predicate, object, then stated before derived. */
  listAll(workspaceId: string): Promise<Edge[]>
  /** The direct (not derived) edge of a triple, whatever its status. */
  findDirect(workspaceId: string, triple: Triple): Promise<Edge | null>
  /** Direct edges under any of `predicates`, any status, by id. */
  findDirectWithPredicates(workspaceId: string, predicates: readonly string[]): Promise<Edge[]>
  /**
   * Current direct edges (active, not superseded, not derived) matching every given part of the triple, by
   * id.
   */
  findCurrentDirect(workspaceId: string, filter: Partial<Triple>): Promise<Edge[]>
  /** Active direct edges last reinforced before `before` (candidates for decay). */
  findStaleDirect(workspaceId: string, before: string): Promise<Edge[]>
  /** Subject and object of every direct edge, any status (the entity names the graph knows). */
  listDirectEndpoints(workspaceId: string): Promise<{ subject: string; object: string }[]>
  /**
   * Current direct `depends_on` edges above `minConfidence` (exclusive), by object then subject: the sources
   * of dependency hubs.
   */
  findConfidentDependencies(workspaceId: string, minConfidence: number): Promise<Edge[]>
  /** Current direct edges under `predicates` above `minConfidence` (exclusive), most confident first. */
  findConfidentWithPredicates(
    workspaceId: string,
    predicates: readonly string[],
    minConfidence: number,
  ): Promise<Edge[]>
  /** Current direct edges with evidence both for and against, most contested first. */
  findContested(workspaceId: string): Promise<Edge[]>
  /**
   * Every (stale edge, chunk) pair where a processed chunk that occurred at or after `since` mentions the
   * subject or object of an active direct edge last reinforced before `since`, and holds no evidence of its
   * own for that edge. By edge id, then chunk id.
   */
  findSoftContradictions(workspaceId: string, since: string): Promise<SoftContradiction[]>
  /** Inserts one edge as given (no canonicalisation, no merge with an existing triple). */
  insert(workspaceId: string, edge: NewEdge): Promise<Edge>
  /** Inserts a derived edge; returns its id. */
  insertDerived(workspaceId: string, edge: NewDerivedEdge): Promise<number>
  /** Ids of the workspace's derived edges. */
  listDerivedIds(workspaceId: string): Promise<number[]>
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

const EDGE_STATUSES: readonly EdgeStatus[] = ['active', 'stale', 'retracted']

function patchColumns(patch: EdgePatch): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {}
  for (const [key, value] of Object.entries(patch)) {
    const column = PATCH_COLUMNS[key as keyof EdgePatch]
    if (column === undefined) throw new StoreError('INVALID_INPUT', `unknown edge field ${key}`)
    if (value === undefined) continue
    if (key === 'supersededBy') {
      if (value !== null) requireInteger(value, key)
    } else if (key === 'validTo') {
      if (value !== null) requireText(value, key)
    } else if (key === 'status') {
      if (!EDGE_STATUSES.includes(value as EdgeStatus))
        throw new StoreError('INVALID_INPUT', `status must be one of ${EDGE_STATUSES.join(', ')}`)
    } else requireText(value, key)
    out[column] = value as string | number | null
  }
  return out
}

function requireTriple(triple: Partial<Triple>): Triple {
  return {
    subject: requireText(triple.subject, 'subject'),
    predicate: requireText(triple.predicate, 'predicate'),
    object: requireText(triple.object, 'object'),
  }
}

function requireNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new StoreError('INVALID_INPUT', `${field} must be a finite number`)
  return value
}

/** Active, not superseded edges of a workspace: the graph as it stands. */
function currentEdges(db: Kysely<HyMemDatabase>, workspaceId: string) {
  return db
    .selectFrom('knowledge_graph')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'active')
    .where('valid_to', 'is', null)
}

export function createEdgesRepository(scope: RepositoryScope): EdgesRepository {
  const { db, context } = scope
  return {
    async listAll(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await db
        .selectFrom('knowledge_graph')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('subject')
        .orderBy('predicate')
        .orderBy('object')
        .orderBy('derived')
        .execute()
      return rows.map(toEdge)
    },
    async findDirect(workspaceId, triple) {
      requireId(workspaceId, 'workspace id')
      const key = requireTriple(triple)
      const row = await scope.read(() => _selectDirectEdgeSqlite(scope.statements, workspaceId, key))
      return row ? toEdge(row) : null
    },
    async findDirectWithPredicates(workspaceId, predicates) {
      requireId(workspaceId, 'workspace id')
      if (predicates.length === 0) return []
      const rows = await db
        .selectFrom('knowledge_graph')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('derived', '=', 0)
        .where('predicate', 'in', predicates)
        .orderBy('id')
        .execute()
      return rows.map(toEdge)
    },
    async findCurrentDirect(workspaceId, filter) {
      requireId(workspaceId, 'workspace id')
      let query = currentEdges(db, workspaceId).where('derived', '=', 0)
      if (filter.subject !== undefined) query = query.where('subject', '=', filter.subject)
      if (filter.predicate !== undefined) query = query.where('predicate', '=', filter.predicate)
      if (filter.object !== undefined) query = query.where('object', '=', filter.object)
      return (await query.orderBy('id').execute()).map(toEdge)
    },
    async findStaleDirect(workspaceId, before) {
      requireId(workspaceId, 'workspace id')
      requireText(before, 'before')
      const rows = await db
        .selectFrom('knowledge_graph')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('status', '=', 'active')
        .where('derived', '=', 0)
        .where('last_reinforced', '<', before)
        .execute()
      return rows.map(toEdge)
    },
    async listDirectEndpoints(workspaceId) {
      requireId(workspaceId, 'workspace id')
      return db
        .selectFrom('knowledge_graph')
        .select(['subject', 'object'])
        .where('workspace_id', '=', workspaceId)
        .where('derived', '=', 0)
        .execute()
    },
    async findConfidentDependencies(workspaceId, minConfidence) {
      requireId(workspaceId, 'workspace id')
      const rows = await currentEdges(db, workspaceId)
        .where('predicate', '=', 'depends_on')
        .where('derived', '=', 0)
        .where('confidence', '>', requireNumber(minConfidence, 'minConfidence'))
        .orderBy('object')
        .orderBy('subject')
        .execute()
      return rows.map(toEdge)
    },
    async findConfidentWithPredicates(workspaceId, predicates, minConfidence) {
      requireId(workspaceId, 'workspace id')
      if (predicates.length === 0) return []
      const rows = await currentEdges(db, workspaceId)
        .where('predicate', 'in', predicates)
        .where('derived', '=', 0)
        .where('confidence', '>', requireNumber(minConfidence, 'minConfidence'))
        .orderBy('confidence', 'desc')
        .orderBy('subject')
        .orderBy('object')
        .execute()
      return rows.map(toEdge)
    },
    async findContested(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await currentEdges(db, workspaceId)
        .where('derived', '=', 0)
        .where('pos_evidence', '>', 0)
        .where('neg_evidence', '>', 0)
        .orderBy('neg_evidence', 'desc')
        .orderBy('subject')
        .orderBy('object')
        .execute()
      return rows.map(toEdge)
    },
    async findSoftContradictions(workspaceId, since) {
      requireId(workspaceId, 'workspace id')
      requireText(since, 'since')
      const rows = await db
        .selectFrom('knowledge_graph as kg')
        .innerJoin('entity_mentions as em', (j) =>
          j
            .onRef('em.workspace_id', '=', 'kg.workspace_id')
            .on((eb) =>
              eb.or([eb('em.entity', '=', eb.ref('kg.subject')), eb('em.entity', '=', eb.ref('kg.object'))]),
            ),
        )
        .innerJoin('chunks as c', 'c.id', 'em.chunk_id')
        .select(['kg.id as edge_id', 'c.id as chunk_id', 'c.message_ids', 'c.occurred_at'])
        .distinct()
        .where('kg.workspace_id', '=', workspaceId)
        .where('kg.status', '=', 'active')
        .where('kg.derived', '=', 0)
        .where('kg.last_reinforced', '<', since)
        .where('c.occurred_at', '>=', since)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('processed_chunks as pc').select('pc.chunk_id').whereRef('pc.chunk_id', '=', 'c.id'),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('kg_evidence as ev')
                .select('ev.id')
                .whereRef('ev.chunk_id', '=', 'c.id')
                .whereRef('ev.edge_id', '=', 'kg.id'),
            ),
          ),
        )
        .orderBy('kg.id')
        .orderBy('c.id')
        .execute()
      return rows.map((row) => ({
        edgeId: row.edge_id,
        chunkId: row.chunk_id,
        messageIds: parseArray<number>(row.message_ids),
        occurredAt: row.occurred_at,
      }))
    },
    async insert(workspaceId, edge) {
      requireId(workspaceId, 'workspace id')
      const triple = requireTriple(edge)
      const seen = edge.seenAt === undefined ? context.now() : requireText(edge.seenAt, 'seenAt')
      if (edge.status !== undefined && !EDGE_STATUSES.includes(edge.status))
        throw new StoreError('INVALID_INPUT', `status must be one of ${EDGE_STATUSES.join(', ')}`)
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
        last_reinforced: seen,
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
    async insertDerived(workspaceId, edge) {
      requireId(workspaceId, 'workspace id')
      const triple = requireTriple(edge)
      const confidence = requireNumber(edge.confidence, 'confidence')
      const lastReinforced = requireText(edge.lastReinforced, 'lastReinforced')
      const validFrom = requireText(edge.validFrom, 'validFrom')
      const now = context.now()
      const row = await db
        .insertInto('knowledge_graph')
        .values({
          workspace_id: workspaceId,
          ...triple,
          confidence,
          derived: 1,
          first_seen: now,
          last_seen: now,
          last_reinforced: lastReinforced,
          valid_from: validFrom,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      return row.id
    },
    async listDerivedIds(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await db
        .selectFrom('knowledge_graph')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('derived', '=', 1)
        .execute()
      return rows.map((row) => row.id)
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
      return scope.write(() => {
        const { pos, neg } = _countEvidenceSqlite(scope.statements, edgeId)
        const confidence = edgeConfidence(pos, neg)
        _updateEdgeCountsSqlite(scope.statements, workspaceId, edgeId, columns, { pos, neg, confidence })
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
