import type { StoreScope } from '@hymem/core-store'
import type { EdgeRow } from './edges'

/**
 * Predicates with one current object per subject and object kind: a new object supersedes the old one when
 * both objects have the same entity type, or neither has one. (`requires_version` keeps one edge per
 * runtime; a new version is a new evidence value on that edge, not a new object.)
 */
export const SINGLE_VALUED_PREDICATES: ReadonlySet<string> = new Set([
  'deploys_to',
  'runs_on',
  'requires_version',
])

/** Predicates a `replaces` edge never carries over (they describe the entities, not their use). */
const NOT_REPLACEABLE: ReadonlySet<string> = new Set(['replaces', 'equivalent_to', 'conflicts_with'])

interface CurrentEdge {
  id: number
  subject: string
  predicate: string
  object: string
  last_reinforced: string
}

/**
 * Closes the validity of edges an assertion replaces instead of deleting them: the older of the two gets
 * `valid_to` (the newer one's evidence time), `superseded_by` and status `stale`, and stays as history.
 * Returns how many edges were superseded.
 */
export async function applySupersede(
  tx: StoreScope,
  workspaceId: string,
  edge: EdgeRow,
  at: string,
): Promise<number> {
  if (edge.status !== 'active' || edge.valid_to !== null) return 0
  let closed = 0
  if (edge.predicate === 'replaces') {
    // (Y replaces X): every (S, P, X) whose subject also has (S, P, Y) moves on to Y.
    for (const old of await current(tx, workspaceId, { object: edge.object })) {
      if (NOT_REPLACEABLE.has(old.predicate)) continue
      const successor = await currentOne(tx, workspaceId, old.subject, old.predicate, edge.subject)
      if (successor) closed += await replace(tx, old, successor, at)
    }
    return closed
  }
  if (NOT_REPLACEABLE.has(edge.predicate)) return 0
  const self: CurrentEdge = edge
  // (S, P, Y) with an active (Y replaces X): (S, P, X) is superseded.
  for (const replaced of await current(tx, workspaceId, { subject: edge.object, predicate: 'replaces' })) {
    const old = await currentOne(tx, workspaceId, edge.subject, edge.predicate, replaced.object)
    if (old) closed += await replace(tx, old, self, replaced.last_reinforced)
  }
  if (SINGLE_VALUED_PREDICATES.has(edge.predicate)) {
    for (const old of await current(tx, workspaceId, { subject: edge.subject, predicate: edge.predicate })) {
      if (old.id === self.id || !(await sameKind(tx, workspaceId, old.object, self.object))) continue
      closed += await close(tx, old, self, at)
    }
  }
  return closed
}

/**
 * A replacement stated at `at` closes the old use, unless the old use was asserted again after it (then
 * both stand: "we switched to Y" followed by "we still use X for Z").
 */
async function replace(tx: StoreScope, old: CurrentEdge, fresh: CurrentEdge, at: string): Promise<number> {
  if (old.id === fresh.id || old.last_reinforced > at) return 0
  return stale(tx, old, fresh, at)
}

/** Newer wins: the edge whose latest assertion is older is the one that closes. */
async function close(tx: StoreScope, old: CurrentEdge, fresh: CurrentEdge, at: string): Promise<number> {
  if (old.id === fresh.id) return 0
  return old.last_reinforced > at ? stale(tx, fresh, old, old.last_reinforced) : stale(tx, old, fresh, at)
}

async function stale(tx: StoreScope, loser: CurrentEdge, winner: CurrentEdge, when: string): Promise<number> {
  const result = await tx.db
    .updateTable('knowledge_graph')
    .set({ status: 'stale', valid_to: when, superseded_by: winner.id })
    .where('id', '=', loser.id)
    .where('status', '=', 'active')
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

async function sameKind(tx: StoreScope, workspaceId: string, a: string, b: string): Promise<boolean> {
  const rows = await tx.db
    .selectFrom('entity_types')
    .select(['entity', 'type'])
    .where('workspace_id', '=', workspaceId)
    .where('entity', 'in', [a, b])
    .execute()
  const typeOf = (e: string) => rows.find((r) => r.entity === e)?.type ?? null
  return typeOf(a) === typeOf(b)
}

function current(
  tx: StoreScope,
  workspaceId: string,
  filter: { subject?: string; predicate?: string; object?: string },
): Promise<CurrentEdge[]> {
  let q = tx.db
    .selectFrom('knowledge_graph')
    .select(['id', 'subject', 'predicate', 'object', 'last_reinforced'])
    .where('workspace_id', '=', workspaceId)
    .where('derived', '=', 0)
    .where('status', '=', 'active')
    .where('valid_to', 'is', null)
  if (filter.subject !== undefined) q = q.where('subject', '=', filter.subject)
  if (filter.predicate !== undefined) q = q.where('predicate', '=', filter.predicate)
  if (filter.object !== undefined) q = q.where('object', '=', filter.object)
  return q.orderBy('id').execute()
}

async function currentOne(
  tx: StoreScope,
  workspaceId: string,
  subject: string,
  predicate: string,
  object: string,
): Promise<CurrentEdge | undefined> {
  const rows = await current(tx, workspaceId, { subject, predicate, object })
  return rows[0]
}
