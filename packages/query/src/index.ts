/**
 * `@hymem/query`: HyMem's hot path. `augment()` returns ranked, explained context for a message — keyword
 * and vector hits over messages and chunks, graph facts with `whyRetrieved` reason codes, episodes,
 * procedures and explicit notes — with no LLM call unless an ambiguity-gated reranker is configured.
 * `conflicts()` lists contradicting edges.
 *
 * @example
 * import { openStore } from '@hymem/core-store'
 * import { createQueryEngine } from '@hymem/query'
 * const store = openStore({ path: '/tmp/hymem.sqlite' })
 * const engine = createQueryEngine({ store })
 * const context = await engine.augment('which database do we use?', { workspaceId: 'default' })
 * console.log(context.ranked[0], context.graphFacts[0]?.whyRetrieved)
 *
 * @module
 */

/** Tunables, their defaults and validation. */
export type { FusionMethod, QueryConfig, RankWeights } from './config'
export { DEFAULT_QUERY_CONFIG, resolveQueryConfig } from './config'
/** The engine factory. */
export { createQueryEngine } from './engine'
export type { QueryErrorCode } from './errors'
export { QueryError } from './errors'
export type { PredicateRoute, RoutedPredicate } from './graph/predicate-routing'
export { PREDICATE_ROUTES, routePredicates } from './graph/predicate-routing'
export type { FallbackBranch, KeywordSource, RetrievalReason, SuppressionReason } from './reasons'
/** The one ranking of explicit notes (augment and note search). */
export type { RankedNote, RankNotesOptions } from './search/notes'
export { rankNotes } from './search/notes'
export type {
  AugmentedContext,
  AugmentHit,
  AugmentLimits,
  AugmentOptions,
  Conflict,
  ConflictEdge,
  ConflictsOptions,
  EpisodeHit,
  GraphFact,
  NoteHit,
  ProcedureHit,
  ProcedureStep,
  QueryEngine,
  QueryEngineOptions,
  QueryLogEvent,
  QueryLogger,
  RankedRef,
  Reranker,
  SuppressedItem,
} from './types'
