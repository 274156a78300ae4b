import { type Kysely, type Selectable, sql } from 'kysely'
import type { StoreEngine } from '../engine/types'
import type { HyMemDatabase, KnowledgeGraphTable } from '../kernel/tables'
import { type Edge, toEdge } from './edge-model'

/** What {@link EdgesRepository.findConflicts} looks for. */
export interface ConflictRules {
  /** Predicates with one object per subject: several current objects conflict. */
  readonly exclusivePredicates: readonly string[]
  /** Predicate pairs that contradict each other on one subject/object pair. */
  readonly opposingPredicates: readonly (readonly [string, string])[]
  readonly limit: number
}

/** A set of current edges that contradict each other. */
export interface EdgeConflict {
  /**
   * `competing_object`: one subject, one exclusive predicate, several objects. `opposing_predicate`: one
   * subject/object pair under contradicting predicates.
   */
  readonly kind: 'competing_object' | 'opposing_predicate'
  readonly subject: string
  /** The exclusive predicate, or the pair joined by `|` (e.g. `prefers|rejects`). */
  readonly predicate: string
  /** The shared object of an opposing pair; null for competing objects. */
  readonly object: string | null
  /** Strongest first. */
  readonly edges: readonly Edge[]
}

/** Contradicting groups of current edges, strongest first (rule lists as parameters, CTEs). */
export async function findConflicts(
  engine: StoreEngine,
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  rules: ConflictRules,
  limit: number,
): Promise<EdgeConflict[]> {
  return groupConflicts(await conflictRows(engine, db, workspaceId, rules, limit))
}

type ConflictRow = Selectable<KnowledgeGraphTable> & {
  group_key: string
  kind: EdgeConflict['kind']
  g_subject: string
  g_predicate: string
  g_object: string | null
}

async function conflictRows(
  engine: StoreEngine,
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  rules: ConflictRules,
  limit: number,
): Promise<ConflictRow[]> {
  const { rows } = await sql<ConflictRow>`
    WITH current AS (
      SELECT * FROM knowledge_graph
      WHERE workspace_id = ${workspaceId} AND status != 'retracted' AND derived = 0 AND valid_to IS NULL
    ),
    competing AS (
      SELECT 'competing_object' AS kind, subject, predicate, NULL AS object,
        'c|' || subject || '|' || predicate AS group_key
      FROM current WHERE ${engine.inIdList('predicate', rules.exclusivePredicates)}
      GROUP BY subject, predicate HAVING count(DISTINCT object) > 1
    ),
    pair AS (${engine.pairRows(rules.opposingPredicates)}),
    opposing AS (
      SELECT DISTINCT 'opposing_predicate' AS kind, x.subject, pair.a || '|' || pair.b AS predicate, x.object,
        'o|' || x.subject || '|' || x.object || '|' || pair.a || '|' || pair.b AS group_key, pair.a, pair.b
      FROM pair
      JOIN current x ON x.predicate = pair.a
      JOIN current y ON y.subject = x.subject AND y.object = x.object AND y.predicate = pair.b
    ),
    members AS (
      SELECT g.group_key, g.kind, g.subject AS g_subject, g.predicate AS g_predicate, g.object AS g_object, e.*
      FROM competing g JOIN current e ON e.subject = g.subject AND e.predicate = g.predicate
      UNION ALL
      SELECT g.group_key, g.kind, g.subject AS g_subject, g.predicate AS g_predicate, g.object AS g_object, e.*
      FROM opposing g JOIN current e ON e.subject = g.subject AND e.object = g.object AND e.predicate IN (g.a, g.b)
    ),
    strength AS (SELECT group_key, min(confidence) AS weakest FROM members GROUP BY group_key
      ORDER BY weakest DESC, group_key LIMIT ${limit})
    SELECT m.*
    FROM members m JOIN strength s ON s.group_key = m.group_key
    ORDER BY s.weakest DESC, m.group_key, m.confidence DESC, m.id`.execute(db)
  return rows
}

function groupConflicts(rows: readonly ConflictRow[]): EdgeConflict[] {
  const groups = new Map<string, { head: ConflictRow; edges: Edge[] }>()
  for (const row of rows) {
    let group = groups.get(row.group_key)
    if (!group) {
      group = { head: row, edges: [] }
      groups.set(row.group_key, group)
    }
    group.edges.push(toEdge(row))
  }
  return [...groups.values()].map(({ head, edges }) => ({
    kind: head.kind,
    subject: head.g_subject,
    predicate: head.g_predicate,
    object: head.g_object,
    edges,
  }))
}
