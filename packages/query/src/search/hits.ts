import { type FusedItem, fuseLists, type RankedList } from '../rank/fusion'
import { combineRerank, disagreementOf } from '../rank/rerank-gate'
import { explained } from '../reasons'
import type { AugmentHit, Reranker } from '../types'
import type { SearchContext } from './context'
import { conversationCue } from './conversation-cues'
import { firstMentionScores } from './first-mentions'
import { messageSimilarities, messagesInContext } from './message-context'
import { passageReasons, searchPassages, withPassageScores, withPassageSimilarities } from './passages'
import { governingRules } from './standing-rules'

/** Characters of each candidate shown to the reranker. */
const RERANK_TEXT_CHARS = 1000

interface Hydrated {
  readonly key: string
  readonly hit: Omit<AugmentHit, 'score' | 'reasons' | 'whyRetrieved'>
}

/** Timings of the hit search, merged into `AugmentedContext.timings`. */
export interface HitTimings {
  keyword: number
  vector: number
  fusion: number
  rerank: number
}

/**
 * Messages and chunks: FTS5 over both, vector KNN over chunks, fused (RRF or lexical bonus), optionally
 * reranked when the head is ambiguous, with message hits already covered by a better chunk dropped.
 */
export async function searchHits(
  ctx: SearchContext,
  message: string,
  limit: number,
  reranker: Reranker | undefined,
  signal: AbortSignal | undefined,
  timings: HitTimings,
): Promise<{ hits: AugmentHit[]; candidates: number }> {
  const { store, config, workspaceId } = ctx
  const pool = Math.max(limit, config.rerankTopK)
  // The chunk KNN does not depend on the keyword results: it runs meanwhile (on its own connection when pooled).
  const chunkVectors = config.vectorChunkWeight > 0 ? ctx.nearest('chunks', pool) : Promise.resolve([])
  chunkVectors.catch(() => undefined)
  let started = performance.now()
  const mentions = await ctx.mentions
  const wordFilter = { skipCommonWords: true, skipWords: mentions.words }
  const messageQuery = {
    ...wordFilter,
    workspaceId,
    limit: Math.max(pool, config.contextPoolK),
    ...(ctx.sessionIds ? { sessionIds: ctx.sessionIds } : {}),
    ...(ctx.peerId !== undefined ? { peerId: ctx.peerId } : {}),
  }
  const overConversation = conversationCue(message) !== null
  const [ownHits, chunkHits, passages, firstMentions, rules] = await Promise.all([
    store.fullText.search('messages', message, messageQuery),
    config.keywordChunks
      ? store.fullText.search('chunks', message, {
          ...wordFilter,
          workspaceId,
          limit: pool,
          ...(ctx.scopeSessionIds ? { sessionIds: ctx.scopeSessionIds } : {}),
        })
      : [],
    searchPassages(ctx, message, messageQuery),
    overConversation ? firstMentionScores(ctx) : new Map(),
    governingRules(ctx, message),
  ])
  const messageHits = withPassageScores(ownHits, passages.keyword)
  timings.keyword += performance.now() - started
  started = performance.now()
  const similarity = withPassageSimilarities(
    await messageSimilarities(ctx, [...messageHits.map((hit) => Number(hit.id)), ...firstMentions.keys()]),
    passages.similar,
  )
  const passageWhy = passageReasons(ownHits, similarity, passages)
  timings.vector += performance.now() - started
  started = performance.now()
  const inContext = await messagesInContext(ctx, messageHits, similarity, mentions.peers, firstMentions)
  // The rules a request falls under lead: they say how to answer it, whatever else matches.
  const pinned = new Set(rules.map((rule) => rule.id))
  const scoredAlso = new Map(inContext.map((item) => [item.id, item.reasons]))
  const messageOrder = [
    ...rules.map((rule) => ({
      id: rule.id,
      score: inContext[0]?.score ?? 1,
      sessionId: rule.sessionId,
      reasons: [{ kind: 'rule_for_topic' as const, term: rule.term }, ...(scoredAlso.get(rule.id) ?? [])],
    })),
    ...inContext.filter((item) => !pinned.has(item.id)),
  ]
  const contextWhy = new Map(
    messageOrder.map((item) => {
      const passage = passageWhy.get(item.id)
      return [`m:${item.id}`, passage ? [passage, ...item.reasons] : item.reasons]
    }),
  )
  const matchedIds = new Set(messageHits.map((hit) => Number(hit.id)))
  timings.keyword += performance.now() - started
  started = performance.now()
  const vectorHits = await chunkVectors
  timings.vector += performance.now() - started

  started = performance.now()
  // Chunks first: on equal fused scores the salient chunk (with its context) wins over a bare message.
  const lists: RankedList[] = [
    { kind: 'keyword', source: 'chunks', items: chunkHits.map((h) => ({ key: `c:${h.id}` })) },
    {
      kind: 'vector',
      items: vectorHits.map((h) => ({ key: `c:${h.id}`, similarity: h.similarity })),
      weight: config.vectorChunkWeight,
    },
    {
      kind: 'keyword',
      source: 'messages',
      items: messageOrder.map((h) => ({ key: `m:${h.id}`, matched: matchedIds.has(h.id) })),
    },
  ]
  const known =
    config.fusion === 'lexical-bonus'
      ? await chunkSimilarities(
          ctx,
          chunkHits.map((h) => Number(h.id)),
          new Set(vectorHits.map((h) => Number(h.id))),
        )
      : new Map<string, number>()
  let fused = fuseLists(lists, config, known)
  const candidates = fused.length
  const hydrated = await hydrate(ctx, fused.slice(0, pool))
  fused = fused.filter((item) => hydrated.has(item.key))
  timings.fusion += performance.now() - started

  if (reranker) {
    started = performance.now()
    fused = await rerank(ctx, reranker, message, fused, lists, hydrated, signal)
    timings.rerank += performance.now() - started
  }

  const hits: AugmentHit[] = []
  const covered = new Set<number>()
  for (const item of fused) {
    const entry = hydrated.get(item.key)
    if (!entry) continue
    const { hit } = entry
    if (hit.kind === 'message' && covered.has(hit.id)) continue
    if (hit.kind === 'chunk') for (const id of hit.messageIds) covered.add(id)
    hits.push({
      ...hit,
      score: item.score,
      ...explained([...item.reasons, ...(contextWhy.get(item.key) ?? [])]),
    })
    if (hits.length >= limit) break
  }
  return { hits, candidates }
}

async function rerank(
  ctx: SearchContext,
  reranker: Reranker,
  message: string,
  fused: FusedItem[],
  lists: readonly RankedList[],
  hydrated: ReadonlyMap<string, Hydrated>,
  signal: AbortSignal | undefined,
): Promise<FusedItem[]> {
  const disagreement = disagreementOf(lists)
  if (disagreement === 0 || disagreement < ctx.config.rerankAmbiguityThreshold || fused.length < 2)
    return fused
  const head = fused.slice(0, ctx.config.rerankTopK)
  const started = performance.now()
  try {
    const { scores } = await reranker.rerank(
      message.slice(0, ctx.config.maxQueryChars),
      head.map((item) => ({
        id: item.key,
        text: (hydrated.get(item.key)?.hit.text ?? '').slice(0, RERANK_TEXT_CHARS),
      })),
      signal ? { signal } : {},
    )
    ctx.log?.({ kind: 'rerank', candidates: head.length, disagreement, ms: performance.now() - started })
    return [...combineRerank(head, scores, ctx.config.rerankWeight), ...fused.slice(head.length)]
  } catch (error) {
    if (signal?.aborted) throw error
    ctx.log?.({ kind: 'rerank-failed', error })
    return fused
  }
}

/** Cosines of keyword-only chunks against the query (lexical-bonus fusion needs a similarity for each). */
async function chunkSimilarities(
  ctx: SearchContext,
  ids: readonly number[],
  skip: ReadonlySet<number>,
): Promise<Map<string, number>> {
  const wanted = ids.filter((id) => !skip.has(id))
  const similarities = wanted.length === 0 ? new Map() : await ctx.similarities('chunks', wanted)
  return new Map([...similarities].map(([id, similarity]) => [`c:${id}`, similarity]))
}

async function hydrate(ctx: SearchContext, items: readonly FusedItem[]): Promise<Map<string, Hydrated>> {
  const messageIds: number[] = []
  const chunkIds: number[] = []
  for (const item of items) {
    const id = Number(item.key.slice(2))
    if (item.key.startsWith('m:')) messageIds.push(id)
    else chunkIds.push(id)
  }
  const out = new Map<string, Hydrated>()
  const sessions = ctx.scopeSessionIds ? new Set(ctx.scopeSessionIds) : null
  const [messages, chunks] = await Promise.all([
    ctx.store.messages.findByIds(ctx.workspaceId, messageIds),
    ctx.store.chunks.getByIds(ctx.workspaceId, chunkIds),
  ])
  for (const message of messages) {
    out.set(`m:${message.id}`, {
      key: `m:${message.id}`,
      hit: {
        kind: 'message',
        id: message.id,
        text: message.content,
        sessionId: message.sessionId,
        peerId: message.peerId,
        createdAt: message.createdAt,
        messageIds: [message.id],
      },
    })
  }
  for (const chunk of chunks) {
    if (sessions && !sessions.has(chunk.sessionId)) continue
    out.set(`c:${chunk.id}`, {
      key: `c:${chunk.id}`,
      hit: {
        kind: 'chunk',
        id: chunk.id,
        text: chunk.text,
        sessionId: chunk.sessionId,
        peerId: null,
        createdAt: chunk.occurredAt,
        messageIds: [...chunk.messageIds],
      },
    })
  }
  return out
}
