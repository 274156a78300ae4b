import { createEdgeReads, type EdgeReads } from './edge-reads'
import { createEdgeWrites, type EdgeWrites } from './edge-writes'
import type { RepositoryScope } from './scope'

export type { Edge, Triple } from './edge-model'
export { toEdge } from './edge-model'
export type { SoftContradiction } from './edge-reads'
export type { EdgeCounts, EdgePatch, NewDerivedEdge, NewEdge } from './edge-writes'

/** Edges of the knowledge graph (`knowledge_graph`), including derived (inferred) edges and validity/supersede links. */
export interface EdgesRepository extends EdgeReads, EdgeWrites {}

export function createEdgesRepository(scope: RepositoryScope): EdgesRepository {
  return { ...createEdgeReads(scope), ...createEdgeWrites(scope) }
}
