import { normalize, parseIsoTime, resolveAlias, type Store } from '@hymem/core-store'
import { HyMemError } from '../errors'
import type { GraphNode, GraphQuery, GraphView, InspectFilters } from './types'

const MAX_FILTER_VALUES = 500

function asOfText(asOf: string | Date | undefined): string | undefined {
  if (asOf === undefined) return undefined
  if (asOf instanceof Date) {
    if (Number.isNaN(asOf.getTime())) throw new HyMemError('INVALID_INPUT', 'asOf is not a valid date')
    return asOf.toISOString()
  }
  return asOf
}

/** The canonical name an entity filter means (its alias resolved), or undefined for no filter. */
async function canonicalEntity(store: Store, workspaceId: string, entity: string | undefined) {
  if (entity === undefined || entity.trim() === '') return undefined
  const name = normalize(entity)
  if (name === '') throw new HyMemError('INVALID_INPUT', 'the entity filter needs letters or digits')
  return (await resolveAlias(store, { workspaceId, surface: name })) ?? name
}

const blankToUndefined = (value: string | undefined) =>
  value === undefined || value.trim() === '' ? undefined : value.trim()

/** The top edges matching the query, their entities with types, and how many matching edges are hidden. */
export async function inspectGraph(store: Store, workspaceId: string, query: GraphQuery): Promise<GraphView> {
  const entity = await canonicalEntity(store, workspaceId, query.entity)
  const predicate = blankToUndefined(query.predicate)
  const text = blankToUndefined(query.text)
  const peerId = blankToUndefined(query.peerId)
  const sessionId = blankToUndefined(query.sessionId)
  const asOf = asOfText(query.asOf)
  const page = await store.edges.listForGraph(workspaceId, {
    ...(entity !== undefined ? { entity } : {}),
    ...(predicate !== undefined ? { predicate } : {}),
    ...(text !== undefined ? { text } : {}),
    ...(peerId !== undefined ? { peerId } : {}),
    ...(sessionId !== undefined ? { sessionId } : {}),
    ...(asOf !== undefined ? { asOf } : {}),
    ...(query.limit !== undefined ? { limit: query.limit } : {}),
    includeInactive: query.includeInactive === true,
  })
  const degree = new Map<string, number>()
  for (const edge of page.edges) {
    degree.set(edge.subject, (degree.get(edge.subject) ?? 0) + 1)
    degree.set(edge.object, (degree.get(edge.object) ?? 0) + 1)
  }
  const types = await store.entityTypes.typesOf(workspaceId, [...degree.keys()])
  const nodes: GraphNode[] = [...degree.entries()].map(([id, n]) => ({
    id,
    type: types.get(id) ?? null,
    degree: n,
  }))
  return {
    nodes,
    edges: page.edges,
    total: page.total,
    hidden: page.total - page.edges.length,
    asOf: asOf === undefined ? null : parseIsoTime(asOf),
  }
}

/** Peers, sessions and predicates to offer as graph filters (at most 500 of each). */
export async function inspectFilters(store: Store, workspaceId: string): Promise<InspectFilters> {
  const [peers, sessions, predicates] = await Promise.all([
    store.peers.list(workspaceId, { size: MAX_FILTER_VALUES }),
    store.sessions.list(workspaceId, { size: MAX_FILTER_VALUES, reverse: true }),
    store.edges.predicateCounts(workspaceId),
  ])
  return {
    peers: peers.items.map((p) => p.id),
    sessions: sessions.items.map((s) => s.id),
    predicates: predicates.slice(0, MAX_FILTER_VALUES),
  }
}
