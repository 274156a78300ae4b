import type { Edge, EdgeValidity, Store } from '@hymem/core-store'
import { buildTokenOverlapIndex, type TokenOverlapIndex } from './graph/token-index'
import type { QueryLogger } from './types'

/** Most cached graph seeds kept per engine (oldest dropped first). */
const MAX_SEEDS = 256

/**
 * Per-engine caches of what only changes when the graph does (dream, merge, retract): the token-overlap
 * index, the most recent edges (the `fallback:recency` seed) and the strongest edges per routed predicate
 * set. Seeds are cached for the current graph only; `asOf` and `includeSuperseded` queries always read live.
 * Whatever changes the graph advances the workspace's stored graph generation; `sync` compares it with the
 * one the caches were filled at, so a change made by another process (a server on the same database, the
 * CLI beside a server on the same file) is seen by the next query.
 */
export interface QueryCaches {
  /** Drops the workspace's entries when its stored graph generation moved since they were filled. */
  sync(workspaceId: string): Promise<void>
  tokenIndex(workspaceId: string): Promise<TokenOverlapIndex>
  recentEdges(workspaceId: string, limit: number, validity: EdgeValidity): Promise<Edge[]>
  topEdgesWithPredicates(
    workspaceId: string,
    predicates: readonly string[],
    limit: number,
    validity: EdgeValidity,
  ): Promise<Edge[]>
  /** Drops one workspace's entries, or everything. */
  invalidate(workspaceId?: string): void
}

/** Creates the caches for one store. */
export function createQueryCaches(store: Store, log: QueryLogger | undefined): QueryCaches {
  const tokenIndexes = new Map<string, Promise<TokenOverlapIndex>>()
  const seeds = new Map<string, Promise<Edge[]>>()
  /** The graph generation each workspace's entries were filled at. */
  const generations = new Map<string, number>()
  const isCurrent = (validity: EdgeValidity) => validity.asOf === undefined && !validity.includeSuperseded
  const invalidate = (workspaceId?: string) => {
    if (workspaceId === undefined) {
      tokenIndexes.clear()
      seeds.clear()
      generations.clear()
      return
    }
    tokenIndexes.delete(workspaceId)
    generations.delete(workspaceId)
    for (const key of [...seeds.keys()]) if (key.startsWith(`${workspaceId}\u0000`)) seeds.delete(key)
  }

  const remember = <T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> => {
    let value = map.get(key)
    if (!value) {
      value = load()
      value.catch(() => map.delete(key))
      map.set(key, value)
      while (map.size > MAX_SEEDS) {
        const oldest = map.keys().next().value
        if (oldest === undefined) break
        map.delete(oldest)
      }
    }
    return value
  }

  return {
    async sync(workspaceId) {
      const current = await store.graphGenerations.current(workspaceId)
      const filledAt = generations.get(workspaceId)
      // Entries filled at no recorded generation are not trusted either.
      if (filledAt !== current) invalidate(workspaceId)
      generations.set(workspaceId, current)
    },
    tokenIndex: (workspaceId) =>
      remember(tokenIndexes, workspaceId, async () => {
        const started = performance.now()
        const built = buildTokenOverlapIndex(await store.edges.listEntityNames(workspaceId))
        log?.({
          kind: 'token-index-built',
          workspaceId,
          canonicals: built.canonicals,
          ms: performance.now() - started,
        })
        return built
      }),
    recentEdges: (workspaceId, limit, validity) => {
      const load = () => store.edges.findMostRecent(workspaceId, { limit, validity })
      return isCurrent(validity) ? remember(seeds, `${workspaceId}\u0000recent\u0000${limit}`, load) : load()
    },
    topEdgesWithPredicates: (workspaceId, predicates, limit, validity) => {
      const load = () => store.edges.findStrongestWithPredicates(workspaceId, predicates, { limit, validity })
      if (!isCurrent(validity)) return load()
      const key = `${workspaceId}\u0000routed\u0000${[...predicates].sort().join(',')}\u0000${limit}`
      return remember(seeds, key, load)
    },
    invalidate,
  }
}
