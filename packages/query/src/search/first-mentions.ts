import { topicTerms } from '@hymem/core-store'
import type { SearchContext } from './context'

/** Words that ask about the conversation itself, not about one of its topics (stemmed as the index stems them). */
const CONVERSATION_WORDS = new Set(
  topicTerms(
    'order walk list brought bring mention mentioned raise raised discuss discussed talk talked tell told ' +
      'conversation conversations chat chats session sessions throughout across different aspects aspect items ' +
      'item topics topic things summary summarize summarise comprehensive complete overview recap progress far ' +
      'time times first last later earlier ever evolve evolved change changed give remind please can could',
  ),
)

/** First mentions read per question, and messages that join the candidates. */
const MENTION_ROWS = 2000
const TOP_MESSAGES = 50

/** A turn where some of the question's topics first came up in its session. */
export interface FirstMentionScore {
  /** 0–1: the summed rarity of the topics it introduced, over the best turn's. */
  readonly score: number
  /** The rarest topic it introduced. */
  readonly term: string
}

/**
 * The turns where the question's topics first came up in each session (the topic index), scored by the
 * rarity of the topics each introduced (`ln(1 + sessions / sessions with the topic)`, summed): what a
 * question over the whole conversation ("in which order did I bring up …") enumerates. Empty when the
 * question names no topic or the index is off.
 */
export async function firstMentionScores(ctx: SearchContext): Promise<Map<number, FirstMentionScore>> {
  const { store, workspaceId, config } = ctx
  if (config.firstMentionWeight <= 0) return new Map()
  const terms = topicTerms(ctx.text.slice(0, config.maxQueryChars)).filter(
    (term) => !CONVERSATION_WORDS.has(term),
  )
  if (terms.length === 0) return new Map()
  const [mentions, counts] = await Promise.all([
    store.topics.firstMentions(workspaceId, terms, {
      limit: MENTION_ROWS,
      ...(ctx.sessionIds ? { sessionIds: ctx.sessionIds } : {}),
      ...(ctx.peerId !== undefined ? { peerId: ctx.peerId } : {}),
    }),
    store.topics.sessionCounts(workspaceId, terms),
  ])
  const rarity = (term: string) => Math.log(1 + counts.sessions / Math.max(1, counts.terms.get(term) ?? 1))
  const perMessage = new Map<number, { sum: number; term: string; best: number }>()
  for (const mention of mentions) {
    const weight = rarity(mention.term)
    const entry = perMessage.get(mention.messageId) ?? { sum: 0, term: mention.term, best: 0 }
    entry.sum += weight
    if (weight > entry.best) {
      entry.best = weight
      entry.term = mention.term
    }
    perMessage.set(mention.messageId, entry)
  }
  const top = [...perMessage].sort((a, b) => b[1].sum - a[1].sum || a[0] - b[0]).slice(0, TOP_MESSAGES)
  const max = top[0]?.[1].sum ?? 0
  if (max <= 0) return new Map()
  return new Map(top.map(([id, entry]) => [id, { score: entry.sum / max, term: entry.term }]))
}
