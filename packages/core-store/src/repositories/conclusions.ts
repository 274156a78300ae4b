import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { StoreEngine } from '../engine/types'
import { _filterFor, CONCLUSION_FILTER_FIELDS, type ConclusionFilter, type FilterTarget } from '../filter'
import { StoreError } from '../kernel/errors'
import { normalize } from '../text/normalize'
import { parseArray, parseObject } from './json'
import { pageWindow, toPage } from './pagination'
import type { RepositoryScope } from './scope'
import type { JsonObject, Page, PageRequest } from './types'

/**
 * What one peer concluded about another: an explicit note with an observer/observed pair, or an active graph
 * fact seen through the sessions of its evidence (see the relation below: a fact about a peer is that peer's,
 * and its observers'; a shared-world fact is every participant's, with `metadata.scope`).
 */
export interface Conclusion {
  /** A note id, or `kg-<edge id>` for a graph fact (see {@link conclusionIdOfEdge}). */
  readonly id: string
  readonly content: string
  readonly observerId: string
  readonly observedId: string
  readonly sessionId: string | null
  /** `explicit`, `deductive`, `inductive` or `contradiction`; derived graph facts are `deductive`. */
  readonly level: string
  /** Ids of the conclusions a deductive one was drawn from. */
  readonly sourceIds: readonly string[]
  readonly timesDerived: number
  readonly metadata: JsonObject
  readonly createdAt: string
}

export type ConclusionOrder = 'newest' | 'oldest' | 'most-derived'

export interface ConclusionQuery {
  readonly filter?: ConclusionFilter
  /** @default 'newest' */
  readonly order?: ConclusionOrder
  /** @default no limit */
  readonly limit?: number
}

/** Conclusions (explicit notes about peers, and graph facts attributed to peers), read-only. */
export interface ConclusionsRepository {
  /** One page of the conclusions `filter` matches, newest first unless `reverse`. */
  list(workspaceId: string, page?: PageRequest, filter?: ConclusionFilter): Promise<Page<Conclusion>>
  /** The conclusions the query's filter matches, in its order. */
  find(workspaceId: string, query?: ConclusionQuery): Promise<Conclusion[]>
}

const GRAPH_PREFIX = 'kg-'

/** The id of the conclusion a graph edge stands for. */
export function conclusionIdOfEdge(edgeId: number): string {
  return `${GRAPH_PREFIX}${edgeId}`
}

/** The edge id behind a graph conclusion id, or null for a note id. */
export function edgeIdOfConclusion(id: string): number | null {
  const match = /^kg-(\d{1,15})$/.exec(id)
  return match ? Number(match[1]) : null
}

const CONCLUSION_TARGET: FilterTarget<keyof typeof CONCLUSION_FILTER_FIELDS> = {
  name: 'conclusions',
  kinds: CONCLUSION_FILTER_FIELDS,
  columns: {
    id: 'conclusions.id',
    content: 'conclusions.content',
    level: 'conclusions.level',
    sessionId: 'conclusions.session_id',
    observerId: 'conclusions.observer_id',
    observedId: 'conclusions.observed_id',
    createdAt: 'conclusions.created_at',
    sourceIds: 'conclusions.source_ids',
    timesDerived: 'conclusions.times_derived',
    metadata: 'conclusions.metadata',
  },
}

interface ConclusionRow {
  id: string
  content: string
  observer_id: string
  observed_id: string
  session_id: string | null
  level: string
  source_ids: string
  times_derived: number
  metadata: string
  created_at: string
}

function toConclusion(row: ConclusionRow): Conclusion {
  return {
    id: row.id,
    content: row.content,
    observerId: row.observer_id,
    observedId: row.observed_id,
    sessionId: row.session_id,
    level: row.level,
    sourceIds: parseArray(row.source_ids).filter((id): id is string => typeof id === 'string'),
    timesDerived: Number(row.times_derived),
    metadata: parseObject(row.metadata),
    createdAt: row.created_at,
  }
}

const ORDERS: Record<ConclusionOrder, RawBuilder<unknown>> = {
  newest: sql`conclusions.created_at DESC, conclusions.id DESC`,
  oldest: sql`conclusions.created_at ASC, conclusions.id ASC`,
  'most-derived': sql`conclusions.times_derived DESC, conclusions.created_at DESC`,
}

export function createConclusionsRepository(scope: RepositoryScope): ConclusionsRepository {
  const { db } = scope
  const select = async (
    workspaceId: string,
    where: RawBuilder<SqlBool>,
    order: ConclusionOrder,
    limit: number,
    offset: number,
  ): Promise<Conclusion[]> => {
    const orderBy = ORDERS[order] ?? invalid(`unknown conclusion order '${String(order)}'`)
    const relation = conclusionsRelation(scope.engine, workspaceId, await peerSubjects(db, workspaceId))
    const result = await sql<ConclusionRow>`SELECT * FROM ${relation}
      WHERE ${where} ORDER BY ${orderBy} ${limitClause(scope.engine, limit)} OFFSET ${offset}`.execute(db)
    return result.rows.map(toConclusion)
  }
  const count = async (workspaceId: string, where: RawBuilder<SqlBool>): Promise<number> => {
    const relation = conclusionsRelation(scope.engine, workspaceId, await peerSubjects(db, workspaceId))
    const result = await sql<{
      n: number
    }>`SELECT count(*) AS n FROM ${relation}
      WHERE ${where}`.execute(db)
    return Number(result.rows[0]?.n ?? 0)
  }

  return {
    async list(workspaceId, request, filter) {
      const window = pageWindow(request)
      const where = _filterFor(scope.engine, CONCLUSION_TARGET, filter)
      const [items, total] = await Promise.all([
        select(workspaceId, where, window.reverse ? 'oldest' : 'newest', window.size, window.offset),
        count(workspaceId, where),
      ])
      return toPage(items, total, window)
    },
    async find(workspaceId, query = {}) {
      const limit = query.limit ?? -1
      if (query.limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
        invalid('limit must be a non-negative integer')
      }
      return select(
        workspaceId,
        _filterFor(scope.engine, CONCLUSION_TARGET, query.filter),
        query.order ?? 'newest',
        limit,
        0,
      )
    },
  }
}

/** Subjects the plain-text extractors give the speaker: a fact under them names no peer. */
const UNATTRIBUTED_SUBJECTS = ['user', 'team']

/** The workspace's peers as `[canonical name, peer id]` pairs: a graph subject equal to one is that peer. */
async function peerSubjects(db: RepositoryScope['db'], workspaceId: string): Promise<[string, string][]> {
  const rows = await db.selectFrom('peers').select('id').where('workspace_id', '=', workspaceId).execute()
  const pairs = new Map<string, string>()
  for (const { id } of rows) {
    const canonical = normalize(id)
    // Two peers whose ids normalize alike cannot be told apart: their facts stay unattributed.
    if (canonical !== '') pairs.set(canonical, pairs.has(canonical) ? '' : id)
  }
  return [...pairs].filter(([, id]) => id !== '')
}

/** A `WITH` table of the peer subjects, written as `VALUES` (a query of no rows when there are none). */
function peerSubjectsTable(pairs: readonly [string, string][]): RawBuilder<unknown> {
  if (pairs.length === 0) return sql`SELECT CAST(NULL AS text), CAST(NULL AS text) WHERE 1 = 0`
  return sql`VALUES ${sql.join(pairs.map(([canonical, peerId]) => sql`(${canonical}, ${peerId})`))}`
}

/**
 * The `conclusions` relation: active notes with both peers set, united with active, current graph edges seen
 * through the sessions of their positive evidence (`kg_evidence.message_ids` → messages):
 *
 * - a fact whose subject is a peer (`about`) is that peer's own conclusion (observer = observed = about),
 *   and another peer's conclusion about it when that peer was a member of an evidence session with
 *   `observe_others: true`; evidence from a session where `about` has `observe_me: false`, or from any
 *   session when the peer's own configuration says `observe_me: false`, counts for nobody;
 * - a shared-world fact (a subject that is no peer: projects, services) is a self-conclusion of every
 *   author and member of an evidence session, with `metadata.scope = 'world'`;
 * - a fact still under the plain-text speaker (`user`, `team`: written before speakers were read) is a
 *   self-conclusion of its author only when its evidence has exactly one human author (`'unattributed'`).
 *
 * The JSON parts are each engine's (`json_each` / `json_object` / `json_extract` on SQLite,
 * `jsonb_array_elements_text` / `jsonb_build_object` / `->>` on PostgreSQL).
 */
function conclusionsRelation(
  engine: StoreEngine,
  workspaceId: string,
  peers: readonly [string, string][],
): RawBuilder<ConclusionRow> {
  const graphMetadata = engine.jsonObject([
    ['source', sql.lit('graph')],
    ['confidence', sql.ref('f.confidence')],
    ['scope', sql.ref('f.scope')],
  ])
  const evidenceMessages = engine.evidenceMessages
  const unattributed = sql.join(UNATTRIBUTED_SUBJECTS.map((subject) => sql`${subject}`))
  const configuration = sql.ref('configuration')
  return sql<ConclusionRow>`(
    WITH peer_subjects(canonical, peer_id) AS (${peerSubjectsTable(peers)}),
    hidden_peers AS (
      SELECT id AS peer_id FROM peers
      WHERE workspace_id = ${workspaceId} AND ${engine.jsonFlag(configuration, 'observe_me')} = 0
    ),
    members AS (
      SELECT session_id, peer_id,
        coalesce(${engine.jsonFlag(configuration, 'observe_me')}, 1) AS observe_me,
        coalesce(${engine.jsonFlag(configuration, 'observe_others')}, 0) AS observe_others
      FROM session_peers WHERE workspace_id = ${workspaceId}
    ),
    sightings AS (
      SELECT DISTINCT e.edge_id AS edge_id, m.session_id AS session_id, m.peer_id AS author, m.role AS role
      ${evidenceMessages}
      WHERE e.workspace_id = ${workspaceId} AND e.polarity = 1
    ),
    facts AS (
      SELECT kg.*, ps.peer_id AS about,
        CASE WHEN ps.peer_id IS NOT NULL THEN 'peer'
          WHEN kg.subject IN (${unattributed}) THEN 'unattributed'
          ELSE 'world' END AS scope
      FROM knowledge_graph kg LEFT JOIN peer_subjects ps ON ps.canonical = kg.subject
      WHERE kg.workspace_id = ${workspaceId} AND kg.status = 'active' AND kg.valid_to IS NULL
    ),
    visible AS (
      SELECT f.id AS edge_id, s.session_id AS session_id FROM facts f JOIN sightings s ON s.edge_id = f.id
      WHERE f.scope = 'peer' AND f.about NOT IN (SELECT peer_id FROM hidden_peers)
        AND NOT EXISTS (SELECT 1 FROM members x
          WHERE x.session_id = s.session_id AND x.peer_id = f.about AND x.observe_me = 0)
    ),
    seen AS (
      SELECT f.id AS edge_id, f.about AS observer_id, f.about AS observed_id
      FROM facts f WHERE f.id IN (SELECT edge_id FROM visible)
      UNION
      SELECT v.edge_id, x.peer_id, f.about
      FROM visible v JOIN facts f ON f.id = v.edge_id
      JOIN members x ON x.session_id = v.session_id AND x.peer_id <> f.about AND x.observe_others = 1
      UNION
      SELECT f.id, s.author, s.author FROM facts f JOIN sightings s ON s.edge_id = f.id WHERE f.scope = 'world'
      UNION
      SELECT f.id, x.peer_id, x.peer_id FROM facts f JOIN sightings s ON s.edge_id = f.id
      JOIN members x ON x.session_id = s.session_id WHERE f.scope = 'world'
      UNION
      SELECT f.id, min(s.author), min(s.author) FROM facts f JOIN sightings s ON s.edge_id = f.id
      WHERE f.scope = 'unattributed' AND s.role = 'user'
      GROUP BY f.id HAVING count(DISTINCT s.author) = 1
    )
    SELECT n.id AS id, n.content AS content, n.observer_id AS observer_id, n.observed_id AS observed_id,
      n.session_id AS session_id, n.level AS level, n.source_ids AS source_ids, n.times_derived AS times_derived,
      n.metadata AS metadata, n.created_at AS created_at
    FROM notes n
    WHERE n.workspace_id = ${workspaceId} AND n.archived_at IS NULL
      AND n.observer_id IS NOT NULL AND n.observed_id IS NOT NULL
    UNION ALL
    SELECT CAST(${GRAPH_PREFIX} AS text) || f.id,
      f.subject || ' ' || replace(f.predicate, '_', ' ') || ' ' || f.object,
      seen.observer_id, seen.observed_id, NULL,
      CASE WHEN f.derived = 1 THEN 'deductive' ELSE 'explicit' END, '[]',
      CASE WHEN f.pos_evidence > 1 THEN f.pos_evidence ELSE 1 END,
      ${graphMetadata}, f.first_seen
    FROM seen JOIN facts f ON f.id = seen.edge_id
  ) AS conclusions`
}

/** `limit` < 0 means no limit (a LIMIT the engine reads as none: SQLite needs one before OFFSET). */
function limitClause(engine: StoreEngine, limit: number): RawBuilder<unknown> {
  return limit >= 0 ? sql`LIMIT ${limit}` : engine.noLimit()
}

function invalid(message: string): never {
  throw new StoreError('INVALID_INPUT', message)
}
