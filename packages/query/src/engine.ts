import { augment } from './augment'
import { resolveQueryConfig } from './config'
import { findConflicts } from './conflicts'
import { QueryError } from './errors'
import { graphCanonicals } from './graph/edge-queries'
import { buildTokenOverlapIndex, type TokenOverlapIndex } from './graph/token-index'
import type { QueryEngine, QueryEngineOptions } from './types'

/**
 * Creates the query engine for a store. It holds the per-workspace token-overlap index (built on first use,
 * dropped by `invalidateQueryCaches()`), so keep one engine per store.
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
  const tokenIndexes = new Map<string, Promise<TokenOverlapIndex>>()

  const tokenIndex = (workspaceId: string): Promise<TokenOverlapIndex> => {
    let index = tokenIndexes.get(workspaceId)
    if (!index) {
      const started = performance.now()
      index = graphCanonicals(store, workspaceId).then((names) => {
        const built = buildTokenOverlapIndex(names)
        log?.({
          kind: 'token-index-built',
          workspaceId,
          canonicals: built.canonicals,
          ms: performance.now() - started,
        })
        return built
      })
      index.catch(() => tokenIndexes.delete(workspaceId))
      tokenIndexes.set(workspaceId, index)
    }
    return index
  }

  const deps = {
    store,
    config,
    embeddings: options.embeddings,
    reranker: options.reranker,
    files: options.files,
    log,
    tokenIndex,
  }
  return {
    config,
    augment: (message, augmentOptions) => augment(deps, message, augmentOptions),
    conflicts: (conflictOptions) => findConflicts(store, config, conflictOptions),
    invalidateQueryCaches: (workspaceId) => {
      if (workspaceId === undefined) tokenIndexes.clear()
      else tokenIndexes.delete(workspaceId)
    },
  }
}
