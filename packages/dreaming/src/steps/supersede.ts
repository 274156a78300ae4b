import type { Edge, StoreScope, Triple } from '@hymem/core-store'

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

/**
 * Closes the validity of edges an assertion replaces instead of deleting them: the older of the two gets
 * `valid_to` (the newer one's evidence time), `superseded_by` and status `stale`, and stays as history.
 * Returns how many edges were superseded.
 */
export async function applySupersede(
  tx: StoreScope,
  workspaceId: string,
  edge: Edge,
  at: string,
): Promise<number> {
  if (edge.status !== 'active' || edge.validTo !== null) return 0
  const graph: Graph = { tx, workspaceId }
  let closed = 0
  if (edge.predicate === 'replaces') {
    // (Y replaces X): every (S, P, X) whose subject also has (S, P, Y) moves on to Y.
    for (const old of await current(graph, { object: edge.object })) {
      if (NOT_REPLACEABLE.has(old.predicate)) continue
      const successor = await currentOne(graph, old.subject, old.predicate, edge.subject)
      if (successor) closed += await replace(graph, old, successor, at)
    }
    return closed
  }
  if (NOT_REPLACEABLE.has(edge.predicate)) return 0
  // (S, P, Y) with an active (Y replaces X): (S, P, X) is superseded.
  for (const replaced of await current(graph, { subject: edge.object, predicate: 'replaces' })) {
    const old = await currentOne(graph, edge.subject, edge.predicate, replaced.object)
    if (old) closed += await replace(graph, old, edge, replaced.lastReinforced)
  }
  if (SINGLE_VALUED_PREDICATES.has(edge.predicate)) {
    for (const old of await current(graph, { subject: edge.subject, predicate: edge.predicate })) {
      if (old.id === edge.id || !(await sameKind(graph, old.object, edge.object))) continue
      closed += await close(graph, old, edge, at)
    }
  }
  return closed
}

/** The transaction and workspace a supersession runs in. */
interface Graph {
  readonly tx: StoreScope
  readonly workspaceId: string
}

/**
 * A replacement stated at `at` closes the old use, unless the old use was asserted again after it (then
 * both stand: "we switched to Y" followed by "we still use X for Z").
 */
async function replace(graph: Graph, old: Edge, fresh: Edge, at: string): Promise<number> {
  if (old.id === fresh.id || old.lastReinforced > at) return 0
  return stale(graph, old, fresh, at)
}

/** Newer wins: the edge whose latest assertion is older is the one that closes. */
async function close(graph: Graph, old: Edge, fresh: Edge, at: string): Promise<number> {
  if (old.id === fresh.id) return 0
  return old.lastReinforced > at ? stale(graph, fresh, old, old.lastReinforced) : stale(graph, old, fresh, at)
}

async function stale({ tx, workspaceId }: Graph, loser: Edge, winner: Edge, when: string): Promise<number> {
  return (await tx.edges.supersede(workspaceId, loser.id, { winnerId: winner.id, validTo: when })) ? 1 : 0
}

async function sameKind({ tx, workspaceId }: Graph, a: string, b: string): Promise<boolean> {
  const types = await tx.entityTypes.typesOf(workspaceId, [a, b])
  return (types.get(a) ?? null) === (types.get(b) ?? null)
}

function current({ tx, workspaceId }: Graph, filter: Partial<Triple>): Promise<Edge[]> {
  return tx.edges.findCurrentDirect(workspaceId, filter)
}

async function currentOne(
  graph: Graph,
  subject: string,
  predicate: string,
  object: string,
): Promise<Edge | undefined> {
  const rows = await current(graph, { subject, predicate, object })
  return rows[0]
}
