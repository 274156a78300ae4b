import { type FullTextHit, type Message, statesStandingRule } from '@hymem/core-store'
import type { QueryConfig } from '../config'
import {
  type ContextScored,
  type Exchange,
  type MessageCandidate,
  scoreInContext,
} from '../rank/context-scoring'
import { leadWithExactTerms } from '../rank/exact-terms'
import { diversifyBySession } from '../rank/session-diversity'
import type { SearchContext } from './context'
import {
  asksAssistantWords,
  asksEver,
  asksOwnWords,
  type ConversationCue,
  conversationCue,
  recallsPast,
} from './conversation-cues'
import type { FirstMentionScore } from './first-mentions'
import { asksWhen, namedPeriod, namesTime, type Period } from './temporal-cues'

const DAY_MS = 86_400_000

/** A turn saying its author never did something, or did not. */
const DENIES = /\b(?:never|haven't|have not|hadn't|had not|didn't|did not|not once)\b/i

/** A turn ending with a question (a trailing bracketed note, such as an image caption, aside). */
const ASKS = /\?["')\]]*\s*(?:\[[^\]]*\]\s*)?$/

/**
 * Rescores message hits with their meaning and context (see {@link scoreInContext}): keyword hits plus the
 * messages nearest to the query by vector (`similarity`, from {@link messageSimilarities}); the author when the query names a peer;
 * the adjacent turns (the reply to a matching question most); the session; for a question about time, turns
 * naming a time and turns written in the period it names. Adjacent turns are only added when the search is
 * not limited to one author (`peerId`), since the turns next to a peer's message are usually someone else's.
 */
export async function messagesInContext(
  ctx: SearchContext,
  hits: readonly FullTextHit[],
  similarity: ReadonlyMap<number, number>,
  mentionedPeers: ReadonlySet<string>,
  firstMentions: ReadonlyMap<number, FirstMentionScore> = new Map(),
): Promise<ContextScored[]> {
  const { config, store, workspaceId } = ctx
  const keyword = new Map(hits.map((hit) => [Number(hit.id), hit.score]))
  const ids = [...new Set([...keyword.keys(), ...similarity.keys(), ...firstMentions.keys()])]
  if (ids.length === 0) return []
  const span = config.neighbourWeight > 0 && ctx.peerId === undefined ? config.neighbourSpan : 0
  // One turn either side at least: the roles of the turns a candidate answers and is answered by name its
  // exchange, even when no score spreads to them.
  const placed = await store.messages.findNeighbours(workspaceId, ids, Math.max(span, 1))
  // Nearby turns only matter for their author, and only when the query names someone.
  const nearby =
    mentionedPeers.size > 0 && config.otherAuthorWeight !== 1
      ? placed.flatMap((message) => [...message.before.slice(0, span), ...message.after.slice(0, span)])
      : []
  // The turns each candidate answers and is answered by: their roles name the exchange.
  const partners = placed.flatMap((message) => [message.before[0], message.after[0]]).filter(isId)
  const messages = new Map(
    (await store.messages.findByIds(workspaceId, [...new Set([...ids, ...nearby, ...partners])])).map(
      (message) => [message.id, message],
    ),
  )
  const when = asksWhen(ctx.text)
  const ever = config.denialBoost > 0 && asksEver(ctx.text)
  const period = config.dateWindowBoost > 0 ? namedPeriod(ctx.text) : null
  const sessions = ctx.sessionIds ? new Set(ctx.sessionIds) : null
  const candidates: MessageCandidate[] = []
  for (const place of placed) {
    const message = messages.get(place.id)
    if (!message || !inScope(message, ctx.peerId, sessions)) continue
    const exchange = exchangeOf(message, place, messages)
    candidates.push({
      id: place.id,
      score: keyword.get(place.id) ?? 0,
      similarity: similarity.get(place.id),
      sessionId: place.sessionId,
      peerId: place.peerId,
      role: message.role,
      exchange,
      before: span > 0 ? place.before : [],
      after: span > 0 ? place.after : [],
      asks: ASKS.test(message.content.trimEnd()),
      statesRule: exchange === 'assistant' && message.role === 'user' && statesStandingRule(message.content),
      mentionsTime: when && namesTime(message.content),
      denies: ever && message.role !== 'assistant' && DENIES.test(message.content),
      inWindow: period ? windowOf(message, period, config.dateWindowSlackDays) : undefined,
      firstMention: firstMentions.get(place.id),
    })
  }
  // Keyword order first, so ties keep it.
  const rank = new Map(ids.map((id, index) => [id, index]))
  candidates.sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0))
  const cue = conversationCue(ctx.text)
  const scored = scoreInContext(candidates, {
    mentionedPeers,
    peerMentionBoost: config.peerMentionBoost,
    neighbourWeight: span > 0 ? config.neighbourWeight : 0,
    sessionWeight: config.sessionWeight,
    denseWeight: config.denseTurnWeight,
    denseFloor: config.denseTurnFloor,
    timeBoost: config.timeQuestionBoost,
    windowBoost: config.dateWindowBoost,
    standingRuleBoost: recallsPast(ctx.text, cue) ? config.recallStandingRuleBoost : config.standingRuleBoost,
    denialBoost: config.denialBoost,
    firstMentionWeight: config.firstMentionWeight,
    questionTurnWeight: config.questionTurnWeight,
    replyWeight: span > 0 ? config.replyWeight : 0,
    assistantExchange: {
      questionTurnWeight: config.assistantQuestionTurnWeight,
      replyWeight: span > 0 ? config.assistantReplyWeight : 0,
      neighbourWeight: span > 0 ? config.assistantNeighbourWeight : 0,
      assistantTurnWeight: assistantTurnWeightFor(ctx.text, cue, config),
    },
    otherAuthorWeight: config.otherAuthorWeight,
    authorOf: (id) => messages.get(id)?.peerId,
  })
  const ordered = cue
    ? diversifyBySession(scored, cue === 'order' ? config.orderSessionDecay : config.overTimeSessionDecay)
    : scored
  return leadWithExactTerms(ctx.text, ordered, (id) => messages.get(id)?.content)
}

/**
 * How much an assistant's turn counts for this question: fully when it asks what the assistant said, little
 * when it asks for the asker's own words, and as a summary or any other question needs otherwise.
 */
function assistantTurnWeightFor(text: string, cue: ConversationCue, config: QueryConfig): number {
  if (asksAssistantWords(text)) return config.assistantWordsTurnWeight
  if (asksOwnWords(text)) return config.ownWordsAssistantTurnWeight
  return cue === 'summary' ? config.summaryAssistantTurnWeight : config.assistantTurnWeight
}

/**
 * Similarity to the query of the keyword hits and of the `denseTurnTopK` messages nearest to it (which join
 * the candidates of {@link messagesInContext}); empty without message vectors.
 */
export async function messageSimilarities(
  ctx: SearchContext,
  keywordIds: readonly number[],
): Promise<Map<number, number>> {
  const { config } = ctx
  if (config.denseTurnWeight <= 0) return new Map()
  const nearest = config.denseTurnTopK > 0 ? await ctx.nearest('messages', config.denseTurnTopK) : []
  const out = new Map(nearest.map((hit) => [Number(hit.id), hit.similarity]))
  const missing = keywordIds.filter((id) => !out.has(id))
  if (missing.length > 0)
    for (const [id, value] of await ctx.similarities('messages', missing)) out.set(Number(id), value)
  return out
}

/**
 * `assistant` when the turn and the turn it answers (an assistant's) or is answered by (a user's) are one
 * user and one assistant; `people` between two humans or two agents.
 */
function exchangeOf(
  message: Message,
  place: { readonly before: readonly number[]; readonly after: readonly number[] },
  messages: ReadonlyMap<number, Message>,
): Exchange {
  const partnerId = message.role === 'assistant' ? place.before[0] : place.after[0]
  const partner = partnerId === undefined ? undefined : messages.get(partnerId)?.role
  const roles = new Set([message.role, partner])
  return roles.has('assistant') && roles.has('user') ? 'assistant' : 'people'
}

function isId(id: number | undefined): id is number {
  return id !== undefined
}

/** Vector hits are not filtered by the store: keep the author and sessions the caller asked for. */
function inScope(
  message: Message,
  peerId: string | undefined,
  sessions: ReadonlySet<string> | null,
): boolean {
  return (peerId === undefined || message.peerId === peerId) && (!sessions || sessions.has(message.sessionId))
}

/** The named period (widened by `slackDays` after its end: turns tell of events after they happen). */
function windowOf(message: Message, period: Period, slackDays: number): Period | undefined {
  const at = Date.parse(message.createdAt)
  const from = Date.parse(period.from)
  const to = Date.parse(period.to) + slackDays * DAY_MS
  if (!(at >= from && at < to)) return undefined
  return { from: period.from.slice(0, 10), to: new Date(to).toISOString().slice(0, 10) }
}
