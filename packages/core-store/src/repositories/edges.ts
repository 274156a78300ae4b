import { createEdgeCurrentReads, type EdgeCurrentReads } from './edge-current-reads'
import { createEdgeReads, type EdgeReads } from './edge-reads'
import { createEdgeWrites, type EdgeWrites } from './edge-writes'
import type { RepositoryScope } from './scope'

export type { ConflictRules, EdgeConflict } from './edge-conflicts'
export type { SoftContradiction } from './edge-current-reads'
export type {
  Edge,
  EdgeCounts,
  EdgeKey,
  EdgePatch,
  EdgeValidity,
  ImportedEdge,
  NewEdge,
  Triple,
} from './edge-model'
export { toEdge } from './edge-model'
export type { NamedEntity } from './edges-sqlite'

/**
 * Edges of the knowledge graph (`knowledge_graph`), including derived (inferred) edges and validity/supersede
 * links. Module layout: `edge-model` (types, checks), `edge-reads` (single edges, listings),
 * `edge-current-reads` (the current graph), `edge-writes`; SQLite-only SQL in `edges-sqlite`,
 * `edge-conflicts` and `graph-statements`.
 */
export interface EdgesRepository extends EdgeReads, EdgeCurrentReads, EdgeWrites {}

export function createEdgesRepository(scope: RepositoryScope): EdgesRepository {
  return { ...createEdgeReads(scope), ...createEdgeCurrentReads(scope), ...createEdgeWrites(scope) }
}
