import { createEdgeCurrentReads, type EdgeCurrentReads } from './edge-current-reads'
import { createEdgeInspectorReads, type EdgeInspectorReads } from './edge-inspector-reads'
import { createEdgeReads, type EdgeReads } from './edge-reads'
import { createEdgeWrites, type EdgeWrites } from './edge-writes'
import type { RepositoryScope } from './scope'

export type { ConflictRules, EdgeConflict } from './edge-conflicts'
export type { SoftContradiction } from './edge-current-reads'
export type { NamedEntity } from './edge-lookups'
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

/**
 * Edges of the knowledge graph (`knowledge_graph`), including derived (inferred) edges and validity/supersede
 * links. Module layout: `edge-model` (types, checks), `edge-reads` (single edges, listings),
 * `edge-current-reads` (the current graph), `edge-inspector-reads` (graph pictures and history, over
 * `edge-graph`), `edge-writes`; portable graph lookups in `edge-lookups` and `edge-conflicts`. SQLite runs
 * the per-triple lookups as cached statements (`engine/sqlite/repositories/edges.ts`).
 */
export interface EdgesRepository extends EdgeReads, EdgeCurrentReads, EdgeInspectorReads, EdgeWrites {}

export function createEdgesRepository(scope: RepositoryScope): EdgesRepository {
  return {
    ...createEdgeReads(scope),
    ...createEdgeCurrentReads(scope),
    ...createEdgeInspectorReads(scope),
    ...createEdgeWrites(scope),
  }
}
