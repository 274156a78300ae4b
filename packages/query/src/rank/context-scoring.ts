import type { MessageRole } from '@hymem/core-store'
import type { RetrievalReason } from '../reasons'

/** A message found by keyword and/or vector search, with where it sits in its session and what it says. */
export interface MessageCandidate {
  readonly id: number
  /** Keyword score: the full-text score, proportional to BM25 within one query (0: no keyword match). */
  readonly score: number
  /** Cosine similarity of the message's vector to the query; absent without message vectors. */
  readonly similarity?: number | undefined
  readonly sessionId: string
  readonly peerId: string
  /** The message role: an assistant's turns have levers of their own. @default 'user' */
  readonly role?: MessageRole
  /** Earlier messages of the same session in scope, nearest first. */
  readonly before: readonly number[]
  /** Later messages of the same session in scope, nearest first (the first is the reply). */
  readonly after: readonly number[]
  /** The turn ends with a question: it asks rather than tells, and its reply holds the answer. */
  readonly asks?: boolean
  /**
   * Who takes part in the exchange of this turn and its reply: `people` (two humans, or two agents) or
   * `assistant` (a user and an assistant). @default 'people'
   */
  readonly exchange?: Exchange
  /** A user's turn stating a standing rule or preference ("always …", "from now on …", "I prefer …"). */
  readonly statesRule?: boolean
  /** The query asks when, and the turn names a time ("last week", "in May", "2023"). */
  readonly mentionsTime?: boolean
  /** The query asks whether something ever happened, and the turn says it never did. */
  readonly denies?: boolean
  /** The query names a period and the turn was written in it (or shortly after). */
  readonly inWindow?: { readonly from: string; readonly to: string } | undefined
  /**
   * The query asks over the whole conversation and the turn is where some of its topics first came up in
   * the session: their rarity, 0–1 (1 for the turn that introduced the most), and the rarest of them.
   */
  readonly firstMention?: { readonly score: number; readonly term: string } | undefined
}

/**
 * The shape of the exchange a turn belongs to. Between people (or between agents) a question asks another
 * party and the reply tells; a user's request to an assistant states the user's own facts while asking for
 * help, and the assistant's reply restates them at length.
 */
export type Exchange = 'people' | 'assistant'

/** The question/reply and speaker levers of one exchange shape. */
export interface ExchangeWeights {
  /** Multiplies the score of a turn that asks a question. @default 1 */
  readonly questionTurnWeight?: number
  /** Share of a question turn's score added to its reply (instead of `neighbourWeight`). @default neighbourWeight */
  readonly replyWeight?: number
  /** Multiplies the own score of an assistant's turn. @default 1 */
  readonly assistantTurnWeight?: number
  /** Share of a turn's score added to each nearby turn other than its reply. @default neighbourWeight */
  readonly neighbourWeight?: number
}

export interface ContextWeights extends Omit<ExchangeWeights, 'neighbourWeight'> {
  /** Peers the query names: their own messages' scores are multiplied by `1 + peerMentionBoost`. */
  readonly mentionedPeers: ReadonlySet<string>
  readonly peerMentionBoost: number
  /** Share of a message's score added to each of its nearby turns. */
  readonly neighbourWeight: number
  /** Share of the best score in a session added to every candidate of that session. */
  readonly sessionWeight: number
  /** Weight of the similarity above `denseFloor` (rescaled to 0–1) added to the keyword score. @default 0 */
  readonly denseWeight?: number
  /** Similarity that adds nothing: `max(0, (similarity − floor) / (1 − floor))`. @default 0 */
  readonly denseFloor?: number
  /** A turn naming a time, for a question asking when: score × (1 + timeBoost). @default 0 */
  readonly timeBoost?: number
  /** A turn written in the period the query names: score × (1 + windowBoost). @default 0 */
  readonly windowBoost?: number
  /** A turn stating a standing rule or preference: score × (1 + standingRuleBoost). @default 0 */
  readonly standingRuleBoost?: number
  /** A turn denying what the query asks ever happened: score × (1 + denialBoost). @default 0 */
  readonly denialBoost?: number
  /** Weight of a turn's first-mention score (see `MessageCandidate.firstMention`) added to its keyword score. @default 0 */
  readonly firstMentionWeight?: number
  /** The levers for turns of user ↔ assistant exchanges; the base levers serve the `people` exchanges. */
  readonly assistantExchange?: ExchangeWeights
  /** When the query names peers, the final score of a turn by anyone else is multiplied by this. @default 1 */
  readonly otherAuthorWeight?: number
  /** Author of a turn that is not a candidate (a neighbour); unknown authors count as someone else. */
  readonly authorOf?: (id: number) => string | undefined
}

/** A rescored message; `reasons` names the signals that added to its score. */
export interface ContextScored {
  readonly id: number
  readonly score: number
  /** The session of the turn (a candidate's, or the session of the candidate it is next to). */
  readonly sessionId: string | undefined
  readonly reasons: RetrievalReason[]
}

/**
 * Rescores messages with their meaning and conversational context, best first:
 * `own(m) = (keyword(m) + denseWeight × dense(m)) × author × time × window × asks`, then
 * `score(m) = own(m) + Σ share × own(nearby turn) + sessionWeight × max own(session of m)`, times
 * `otherAuthorWeight` for turns by someone the query does not name (when it names anyone). A turn next to a
 * strong match (the question it answers, the reply it got) is reached even when it shares no word with the
 * query; the reply to a matching question gets `replyWeight`, the other nearby turns `neighbourWeight`. A
 * session that matches well as a whole ranks its turns above stray matches elsewhere.
 */
export function scoreInContext(
  candidates: readonly MessageCandidate[],
  weights: ContextWeights,
): ContextScored[] {
  const own = new Map<number, number>()
  const sessionOf = new Map<number, string>()
  const authors = new Map<number, string>()
  const sessionBest = new Map<string, number>()
  const why = new Map<number, RetrievalReason[]>()
  const reasons = (id: number) => {
    const list = why.get(id) ?? []
    why.set(id, list)
    return list
  }
  for (const candidate of candidates) {
    const score = ownScore(candidate, weights, reasons(candidate.id))
    own.set(candidate.id, Math.max(own.get(candidate.id) ?? 0, score))
    sessionOf.set(candidate.id, candidate.sessionId)
    authors.set(candidate.id, candidate.peerId)
    sessionBest.set(candidate.sessionId, Math.max(sessionBest.get(candidate.sessionId) ?? 0, score))
  }
  const total = new Map(own)
  for (const candidate of candidates) {
    const levers = leversOf(candidate, weights)
    const neighbourWeight = levers.neighbourWeight ?? weights.neighbourWeight
    const replyWeight = levers.replyWeight ?? neighbourWeight
    const base = own.get(candidate.id) ?? 0
    if (base <= 0) continue
    const spread = (id: number, share: number, reason: RetrievalReason) => {
      if (share <= 0) return
      total.set(id, (total.get(id) ?? 0) + share * base)
      sessionOf.set(id, candidate.sessionId)
      reasons(id).push(reason)
    }
    const reply = candidate.after[0]
    if (reply !== undefined) {
      if (candidate.asks && replyWeight > 0)
        spread(reply, replyWeight, { kind: 'reply_to', messageId: candidate.id })
      else spread(reply, neighbourWeight, { kind: 'neighbour_of', messageId: candidate.id })
    }
    for (const id of [...candidate.before, ...candidate.after.slice(1)])
      spread(id, neighbourWeight, { kind: 'neighbour_of', messageId: candidate.id })
  }
  const others = weights.mentionedPeers.size > 0 ? (weights.otherAuthorWeight ?? 1) : 1
  const scored = [...total.entries()].map(([id, score]) => {
    const session = sessionOf.get(id)
    const context = weights.sessionWeight * (session === undefined ? 0 : (sessionBest.get(session) ?? 0))
    if (context > 0) reasons(id).push({ kind: 'session_context' })
    const author = authors.get(id) ?? weights.authorOf?.(id)
    const factor = author !== undefined && weights.mentionedPeers.has(author) ? 1 : others
    return { id, score: (score + context) * factor, sessionId: session, reasons: why.get(id) ?? [] }
  })
  // Ties keep the candidate order (then message order), so equal scores never shuffle between runs.
  const candidateRank = new Map(candidates.map((candidate, index) => [candidate.id, index]))
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      (candidateRank.get(a.id) ?? Number.MAX_SAFE_INTEGER) -
        (candidateRank.get(b.id) ?? Number.MAX_SAFE_INTEGER) ||
      a.id - b.id,
  )
  return scored
}

/** A candidate's own score (before context), recording the factors that raised it in `why`. */
function ownScore(candidate: MessageCandidate, weights: ContextWeights, why: RetrievalReason[]): number {
  const keyword = Math.max(0, candidate.score)
  const floor = weights.denseFloor ?? 0
  const similarity = candidate.similarity
  const dense =
    similarity === undefined || !(weights.denseWeight ?? 0)
      ? 0
      : Math.max(0, (similarity - floor) / (1 - floor)) * (weights.denseWeight ?? 0)
  if (dense > 0 && similarity !== undefined) why.push({ kind: 'semantic', similarity })
  const first = candidate.firstMention ? candidate.firstMention.score * (weights.firstMentionWeight ?? 0) : 0
  if (first > 0 && candidate.firstMention)
    why.push({ kind: 'first_mention', term: candidate.firstMention.term })
  let score = keyword + dense + first
  if (score <= 0) return 0
  if (weights.peerMentionBoost > 0 && weights.mentionedPeers.has(candidate.peerId)) {
    score *= 1 + weights.peerMentionBoost
    why.push({ kind: 'author', peerId: candidate.peerId })
  }
  if (candidate.mentionsTime && (weights.timeBoost ?? 0) > 0) {
    score *= 1 + (weights.timeBoost ?? 0)
    why.push({ kind: 'time_mention' })
  }
  if (candidate.inWindow && (weights.windowBoost ?? 0) > 0) {
    score *= 1 + (weights.windowBoost ?? 0)
    why.push({ kind: 'date_window', from: candidate.inWindow.from, to: candidate.inWindow.to })
  }
  if (candidate.denies && (weights.denialBoost ?? 0) > 0) {
    score *= 1 + (weights.denialBoost ?? 0)
    why.push({ kind: 'denial' })
  }
  if (candidate.statesRule && (weights.standingRuleBoost ?? 0) > 0) {
    score *= 1 + (weights.standingRuleBoost ?? 0)
    why.push({ kind: 'standing_rule' })
  }
  const levers = leversOf(candidate, weights)
  if (candidate.asks) score *= levers.questionTurnWeight ?? 1
  if (candidate.role === 'assistant') score *= levers.assistantTurnWeight ?? 1
  return score
}

/** The levers of the candidate's exchange: user ↔ assistant ones when it has them, the base ones else. */
function leversOf(candidate: MessageCandidate, weights: ContextWeights): ExchangeWeights {
  return candidate.exchange === 'assistant' ? (weights.assistantExchange ?? weights) : weights
}
