import {
  type Edge,
  type EdgeValidity,
  loadTokenCounter,
  MAX_NEAREST_K,
  type Store,
  type VectorIndexName,
} from '@hymem/core-store'
import type { EmbeddingClient } from '@hymem/extraction'
import { keepAsOf } from './as-of'
import type { QueryCaches } from './caches'
import type { QueryConfig } from './config'
import { packContext } from './context/pack'
import { renderLines } from './context/render'

import { _throwIfAborted, QueryError } from './errors'
import { matchAndExpand } from './graph/match-and-expand'
import { factsForPeer, loadPeerSubjects } from './graph/peer-subjects'
import { routePredicates } from './graph/predicate-routing'
import { rankGraph } from './graph/rank-graph'
import { profileText } from './profile-files'
import { rankAll } from './rank/final-order'
import type { SearchContext } from './search/context'
import { searchEpisodes, searchProcedures } from './search/episodes'
import { searchHits } from './search/hits'
import { searchNotes } from './search/notes'
import { findPeerMentions, inFirstPerson, NO_PEER_MENTIONS } from './search/peer-mentions'
import { writeSearchLog } from './search-log'
import { collectSuppressed, type SuppressedSources } from './suppressed'
import type { AugmentedContext, AugmentLimits, AugmentOptions, QueryEngineOptions } from './types'

/** Largest per-source limit accepted. */
const MAX_LIMIT = 1000
/** Largest context budget accepted (tokens). */
const MAX_TOKENS = 1_000_000

/** What `augment` needs from its engine. */
export interface AugmentDeps {
  readonly store: Store
  readonly config: QueryConfig
  readonly embeddings: EmbeddingClient | undefined
  readonly reranker: QueryEngineOptions['reranker']
  readonly files: QueryEngineOptions['files']
  readonly log: QueryEngineOptions['log']
  readonly caches: QueryCaches
}

interface GraphResult {
  readonly matchedEntities: string[]
  readonly graphFacts: AugmentedContext['graphFacts']
  readonly hiddenEdges: Edge[]
  readonly weakEdges: SuppressedSources['weakEdges']
}

/** The augment pipeline (see `QueryEngine.augment`). */
export async function augment(
  deps: AugmentDeps,
  message: string,
  options: AugmentOptions,
): Promise<AugmentedContext> {
  const started = performance.now()
  const { store, config, log } = deps
  if (typeof message !== 'string')
    throw new QueryError('INVALID_INPUT', 'augment() needs the message as a string')
  const workspaceId = checkWorkspace(options)
  const limits = resolveLimits(options.limits, config)
  const asOf = resolveAsOf(options.asOf)
  const tokens = resolveTokens(options.tokens)
  const signal = options.signal
  _throwIfAborted(signal)
  const timings: Record<string, number> = {}
  const time = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const at = performance.now()
    try {
      return await fn()
    } finally {
      timings[name] = (timings[name] ?? 0) + performance.now() - at
      _throwIfAborted(signal)
    }
  }

  const mentions =
    config.peerMentionBoost > 0
      ? findPeerMentions(store, workspaceId, message)
      : Promise.resolve(NO_PEER_MENTIONS)
  const vectorPromise = mentions.then(
    (named) => embedQuery(deps, inFirstPerson(message, named.peers), signal),
    () => embedQuery(deps, message, signal),
  )
  const [userMd, memoryMd] = await time('profile', () =>
    Promise.all([
      profileText(options.userMd, deps.files?.userMd, log),
      profileText(options.memoryMd, deps.files?.memoryMd, log),
    ]),
  )
  const ctx: SearchContext = {
    store,
    config,
    workspaceId,
    peerId: options.peerId,
    sessionIds: options.sessionIds,
    scopeSessionIds:
      options.sessionIds ??
      (options.peerId !== undefined
        ? await store.sessions.listIdsForPeer(workspaceId, options.peerId)
        : undefined),
    text: message,
    mentions,
    log,
    nearest: async (index: VectorIndexName, k: number) => {
      const vector = await vectorPromise
      if (!vector || !deps.embeddings) return []
      try {
        return await store.vectors.nearest(index, vector, {
          workspaceId,
          k: Math.min(k, MAX_NEAREST_K),
          model: deps.embeddings.model,
        })
      } catch (error) {
        log?.({ kind: 'vector-failed', index, error })
        return []
      }
    },
    similarities: async (index: VectorIndexName, ids: readonly (number | string)[]) => {
      const vector = await vectorPromise
      if (!vector || !deps.embeddings || ids.length === 0) return new Map()
      try {
        return await store.vectors.similarities(index, ids, vector, {
          workspaceId,
          model: deps.embeddings.model,
        })
      } catch (error) {
        log?.({ kind: 'vector-failed', index, error })
        return new Map()
      }
    },
  }

  const validity: EdgeValidity =
    asOf !== undefined ? { asOf } : { includeSuperseded: options.includeSuperseded === true }
  const searchGraph = async (): Promise<GraphResult> => {
    if (limits.graph <= 0) return { matchedEntities: [], graphFacts: [], hiddenEdges: [], weakEdges: [] }
    const entities = await time('entities', async () => {
      await deps.caches.sync(workspaceId)
      return matchAndExpand(store, workspaceId, message, config, deps.caches.tokenIndex)
    })
    const { facts, weak } = await time('graph', () =>
      rankGraph(
        store,
        {
          workspaceId,
          ...entities,
          routed: routePredicates(message),
          ...(deps.embeddings
            ? {
                nearestEdges: async (k: number) =>
                  (await ctx.nearest('edges', k)).map((hit) => ({
                    id: Number(hit.id),
                    similarity: hit.similarity,
                  })),
              }
            : {}),
          validity,
          now: asOf !== undefined ? new Date(asOf) : store.context.clock(),
          // Another peer's facts are dropped below: ask for more so the limit can still be met.
          limit: options.peerId !== undefined ? Math.min(limits.graph * 2, MAX_LIMIT) : limits.graph,
        },
        config,
        deps.caches,
      ),
    )
    const subjects = await time('graph', () => loadPeerSubjects(store, workspaceId))
    const graphFacts = factsForPeer(facts, subjects, options.peerId).slice(0, limits.graph)
    // The recency fallback may still return an edge the semantic floor dropped.
    const returned = new Set(facts.map((fact) => fact.id))
    const weakEdges = weak.filter(({ edge }) => !returned.has(edge.id)).slice(0, config.suppressedLimit)
    const hiddenEdges =
      config.suppressedLimit > 0 && entities.matched.length > 0
        ? await time('graph', () =>
            store.edges.findHiddenTouching(workspaceId, entities.matched, {
              limit: config.suppressedLimit,
              validity,
            }),
          )
        : []
    return { matchedEntities: entities.matched, graphFacts, hiddenEdges, weakEdges }
  }

  // The searches are independent: on a pooled backend they run on several connections at once.
  const hitTimings = { keyword: 0, vector: 0, fusion: 0, rerank: 0 }
  const [searchedHits, searchedEpisodes, searchedProcedures, searchedNotes, graph] = await Promise.all([
    limits.hits > 0
      ? time('hits', () => searchHits(ctx, message, limits.hits, deps.reranker, signal, hitTimings))
      : { hits: [], candidates: 0 },
    limits.episodes > 0 ? time('episodes', () => searchEpisodes(ctx, limits.episodes)) : [],
    limits.procedures > 0 ? time('procedures', () => searchProcedures(ctx, limits.procedures)) : [],
    limits.notes > 0 ? time('notes', () => searchNotes(ctx, limits.notes)) : { hits: [], dropped: [] },
    searchGraph(),
  ])
  Object.assign(timings, hitTimings)
  let { hits } = searchedHits
  const { candidates } = searchedHits
  let episodes = searchedEpisodes
  let procedures = searchedProcedures
  let notes = searchedNotes.hits
  const droppedNotes = searchedNotes.dropped
  const { matchedEntities, graphFacts, hiddenEdges, weakEdges } = graph

  if (asOf !== undefined) {
    const kept = await time('asOf', () =>
      keepAsOf(store, workspaceId, asOf, { hits, episodes, procedures, notes }),
    )
    hits = kept.hits
    episodes = kept.episodes
    procedures = kept.procedures
    notes = kept.notes
  }

  const ranked = rankAll(
    { hit: hits, graph: graphFacts, episode: episodes, procedure: procedures, note: notes },
    config.rankWeights,
  )
  const packed =
    tokens === undefined
      ? null
      : await time('context', async () =>
          packContext(
            {
              userMd,
              memoryMd,
              lines: renderLines(ranked, { hits, graphFacts, episodes, procedures, notes }),
            },
            tokens,
            await loadTokenCounter(),
          ),
        )
  const suppressed = await time('suppressed', () =>
    collectSuppressed(store, workspaceId, {
      hiddenEdges,
      weakEdges,
      notes: droppedNotes,
      overBudget: packed && tokens !== undefined ? { budget: tokens, dropped: packed.dropped } : null,
    }),
  )
  const returned = hits.length + graphFacts.length + episodes.length + procedures.length + notes.length
  if (config.searchLog) {
    await time('log', () =>
      writeSearchLog(store, log, {
        workspaceId,
        query: message,
        candidates: candidates + graphFacts.length + episodes.length + procedures.length + notes.length,
        hits: returned,
        topScore: ranked[0]?.score ?? null,
        latencyMs: performance.now() - started,
      }),
    )
  }
  timings.total = performance.now() - started
  log?.({ kind: 'augment', workspaceId, hits: hits.length, graphFacts: graphFacts.length, ms: timings.total })
  return {
    query: message,
    workspaceId,
    userMd,
    memoryMd,
    hits,
    graphFacts,
    episodes,
    procedures,
    notes,
    matchedEntities,
    ranked,
    context: packed?.text ?? null,
    contextTokens: packed?.tokens ?? 0,
    suppressed,
    timings,
  }
}

function embedQuery(
  deps: AugmentDeps,
  message: string,
  signal: AbortSignal | undefined,
): Promise<Float32Array | null> {
  const client = deps.embeddings
  const text = message.slice(0, deps.config.maxQueryChars)
  if (!client || text.trim() === '') return Promise.resolve(null)
  const vector = client
    .embed([text], signal ? { signal } : {})
    .then((vectors) => {
      const first = vectors[0]
      return first && first.length > 0 ? first : null
    })
    .catch((error: unknown) => {
      deps.log?.({ kind: 'embed-failed', client: client.name, error })
      return null
    })
  return vector
}

function checkWorkspace(options: AugmentOptions): string {
  if (!options || typeof options.workspaceId !== 'string' || options.workspaceId === '')
    throw new QueryError('INVALID_INPUT', 'augment() needs options.workspaceId (a non-empty string)')
  if (options.peerId !== undefined && typeof options.peerId !== 'string')
    throw new QueryError('INVALID_INPUT', 'augment() options.peerId must be a string')
  if (
    options.sessionIds !== undefined &&
    (!Array.isArray(options.sessionIds) || options.sessionIds.some((id) => typeof id !== 'string'))
  )
    throw new QueryError('INVALID_INPUT', 'augment() options.sessionIds must be an array of strings')
  return options.workspaceId
}

function resolveLimits(limits: AugmentLimits | undefined, config: QueryConfig): Required<AugmentLimits> {
  const pick = (name: keyof AugmentLimits, fallback: number): number => {
    const value = limits?.[name] ?? fallback
    if (!Number.isInteger(value) || value < 0 || value > MAX_LIMIT)
      throw new QueryError(
        'INVALID_INPUT',
        `augment() limits.${name} must be an integer 0..${MAX_LIMIT}, got ${String(value)}`,
      )
    return value
  }
  return {
    hits: pick('hits', config.ftsTopK),
    graph: pick('graph', config.graphTopK),
    episodes: pick('episodes', config.episodesTopK),
    procedures: pick('procedures', config.proceduresTopK),
    notes: pick('notes', config.notesTopK),
  }
}

function resolveTokens(tokens: number | undefined): number | undefined {
  if (tokens === undefined) return undefined
  if (!Number.isInteger(tokens) || tokens < 1 || tokens > MAX_TOKENS)
    throw new QueryError(
      'INVALID_INPUT',
      `augment() tokens must be an integer 1..${MAX_TOKENS}, got ${String(tokens)}`,
    )
  return tokens
}

function resolveAsOf(asOf: string | Date | undefined): string | undefined {
  if (asOf === undefined) return undefined
  const time =
    asOf instanceof Date ? asOf.getTime() : typeof asOf === 'string' ? Date.parse(asOf) : Number.NaN
  if (Number.isNaN(time))
    throw new QueryError('INVALID_INPUT', `augment() asOf is not a valid time: ${String(asOf)}`)
  return new Date(time).toISOString()
}
