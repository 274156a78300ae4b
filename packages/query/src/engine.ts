import { augment } from './augment'
import { createQueryCaches } from './caches'
import { resolveQueryConfig } from './config'
import { findConflicts } from './conflicts'
import { QueryError } from './errors'
import type { QueryEngine, QueryEngineOptions } from './types'

/**
 * Creates the query engine for a store. It caches, per workspace, what only changes with the graph (the
 * token-overlap index, the recent-edges seed, the strongest edges per routed predicate set), so keep one
 * engine per store. Whatever changes the graph advances `store.graphGenerations` (dreams, merges, retractions,
 * purges and imports do); each query compares it, so a change made by any process is seen by the next query.
 * `invalidateQueryCaches()` drops them at once in this process.
 *
 * @example
 * const engine = createQueryEngine({ store, embeddings: cachedEmbeddings(client) })
 * const context = await engine.augment('what does atta use for the api?', { workspaceId: 'default' })
 * for (const fact of context.graphFacts) console.log(fact.subject, fact.predicate, fact.object, fact.whyRetrieved)
 */
export function createQueryEngine(options: QueryEngineOptions): QueryEngine {
  if (!options?.store) throw new QueryError('INVALID_INPUT', 'createQueryEngine() needs a store')
  const config = resolveQueryConfig(options.config)
  const { store, log } = options
  const caches = createQueryCaches(store, log)
  const deps = {
    store,
    config,
    embeddings: options.embeddings,
    reranker: options.reranker,
    files: options.files,
    log,
    caches,
  }
  return {
    config,
    augment: (message, augmentOptions) => augment(deps, message, augmentOptions),
    conflicts: (conflictOptions) => findConflicts(store, config, conflictOptions),
    invalidateQueryCaches: (workspaceId) => caches.invalidate(workspaceId),
  }
}
