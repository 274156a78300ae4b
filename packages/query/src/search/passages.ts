import type { FullTextHit, FullTextQuery, Passage } from '@hymem/core-store'
import type { RetrievalReason } from '../reasons'
import type { SearchContext } from './context'

/** The passage of a long message that scored it, by keyword or by meaning. */
export interface BestPassage {
  readonly passage: Passage
  readonly score: number
}

/** What the passages of long messages add to the message search. */
export interface PassageMatches {
  /** The best keyword passage of each message (relative score × `passageWeight`). */
  readonly keyword: ReadonlyMap<number, BestPassage>
  /** The most similar passage of each message among the passages nearest to the query. */
  readonly similar: ReadonlyMap<number, BestPassage>
}

const NONE: PassageMatches = { keyword: new Map(), similar: new Map() }

/**
 * Searches the passages of long messages by keyword (with the message search's filters) and by vector (the
 * `denseTurnTopK` nearest), each message keeping its best passage: a long turn is then ranked by the
 * stretch that matters, not as one diluted document. Empty when `passageWeight` is 0.
 */
export async function searchPassages(
  ctx: SearchContext,
  message: string,
  query: FullTextQuery,
): Promise<PassageMatches> {
  const { config, store, workspaceId } = ctx
  if (config.passageWeight <= 0) return NONE
  const [keywordHits, vectorHits] = await Promise.all([
    store.fullText.search('passages', message, query),
    config.denseTurnWeight > 0 && config.denseTurnTopK > 0
      ? ctx.nearest('passages', config.denseTurnTopK)
      : [],
  ])
  const ids = [...new Set([...keywordHits, ...vectorHits].map((hit) => Number(hit.id)))]
  if (ids.length === 0) return NONE
  const passages = new Map((await store.passages.getByIds(workspaceId, ids)).map((p) => [p.id, p]))
  const sessions = ctx.sessionIds ? new Set(ctx.sessionIds) : null
  const inScope = (passage: Passage) =>
    (ctx.peerId === undefined || passage.peerId === ctx.peerId) &&
    (!sessions || sessions.has(passage.sessionId))
  const best = (hits: readonly { id: number | string }[], score: (index: number) => number) => {
    const out = new Map<number, BestPassage>()
    hits.forEach((hit, index) => {
      const passage = passages.get(Number(hit.id))
      if (!passage || !inScope(passage)) return
      const value = score(index)
      if ((out.get(passage.messageId)?.score ?? -1) < value)
        out.set(passage.messageId, { passage, score: value })
    })
    return out
  }
  return {
    keyword: best(keywordHits, (index) => (keywordHits[index] as FullTextHit).score * config.passageWeight),
    similar: best(vectorHits, (index) => vectorHits[index]?.similarity ?? 0),
  }
}

/** Message keyword hits with each message's best passage score where it beats the message's own, best first. */
export function withPassageScores(
  hits: readonly FullTextHit[],
  passages: ReadonlyMap<number, BestPassage>,
): FullTextHit[] {
  if (passages.size === 0) return [...hits]
  const scores = new Map(hits.map((hit) => [Number(hit.id), hit.score]))
  for (const [messageId, best] of passages)
    if ((scores.get(messageId) ?? 0) < best.score) scores.set(messageId, best.score)
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score)
}

/** Message similarities raised to their most similar passage's where that is higher. */
export function withPassageSimilarities(
  similarity: Map<number, number>,
  passages: ReadonlyMap<number, BestPassage>,
): Map<number, number> {
  for (const [messageId, best] of passages)
    if ((similarity.get(messageId) ?? -1) < best.score) similarity.set(messageId, best.score)
  return similarity
}

/**
 * The `passage` reason of each message whose score came from one of its passages (by keyword, else by
 * meaning), naming where the passage lies in the message.
 */
export function passageReasons(
  hits: readonly FullTextHit[],
  similarity: ReadonlyMap<number, number>,
  matches: PassageMatches,
): Map<number, RetrievalReason> {
  const out = new Map<number, RetrievalReason>()
  const own = new Map(hits.map((hit) => [Number(hit.id), hit.score]))
  const mark = (messageId: number, best: BestPassage) =>
    out.set(messageId, {
      kind: 'passage',
      passageId: best.passage.id,
      start: best.passage.start,
      end: best.passage.end,
    })
  for (const [messageId, best] of matches.similar)
    if (similarity.get(messageId) === best.score) mark(messageId, best)
  for (const [messageId, best] of matches.keyword)
    if ((own.get(messageId) ?? 0) <= best.score) mark(messageId, best)
  return out
}
