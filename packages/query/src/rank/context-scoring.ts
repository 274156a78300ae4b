import type { RetrievalReason } from '../reasons'

/** A keyword-matched message with where it sits in its session. */
export interface MessageCandidate {
  readonly id: number
  /** Keyword score: the full-text score, proportional to BM25 within one query (0: the message did not match). */
  readonly score: number
  readonly sessionId: string
  readonly peerId: string
  /** The nearby messages of the same session in scope (the adjacent turns on either side). */
  readonly neighbours: readonly number[]
}

export interface ContextWeights {
  /** Peers the query names: their own messages' keyword scores are multiplied by `1 + peerMentionBoost`. */
  readonly mentionedPeers: ReadonlySet<string>
  readonly peerMentionBoost: number
  /** Share of a message's score added to each of its `neighbours`. */
  readonly neighbourWeight: number
  /** Share of the best score in a session added to every candidate of that session. */
  readonly sessionWeight: number
}

/** A rescored message; `reasons` names the context signals that added to its score. */
export interface ContextScored {
  readonly id: number
  readonly score: number
  readonly reasons: RetrievalReason[]
}

/**
 * Rescores keyword-matched messages with their conversational context, best first:
 * `score(m) = own(m) + neighbourWeight × Σ own(nearby turns) + sessionWeight × max own(session of m)`, where
 * `own` is the keyword score, boosted when the message's author is a peer the query names. A turn next to
 * a strong match (the question it answers, the reply it got) is reached even when it shares no word with
 * the query, and a session that matches well as a whole ranks its turns above stray matches elsewhere.
 */
export function scoreInContext(
  candidates: readonly MessageCandidate[],
  weights: ContextWeights,
): ContextScored[] {
  const own = new Map<number, number>()
  const sessionOf = new Map<number, string>()
  const sessionBest = new Map<string, number>()
  const why = new Map<number, RetrievalReason[]>()
  const reasons = (id: number) => {
    const list = why.get(id) ?? []
    why.set(id, list)
    return list
  }
  for (const candidate of candidates) {
    const authored = weights.mentionedPeers.has(candidate.peerId) && candidate.score > 0
    const score = Math.max(0, candidate.score) * (authored ? 1 + weights.peerMentionBoost : 1)
    own.set(candidate.id, Math.max(own.get(candidate.id) ?? 0, score))
    sessionOf.set(candidate.id, candidate.sessionId)
    sessionBest.set(candidate.sessionId, Math.max(sessionBest.get(candidate.sessionId) ?? 0, score))
    if (authored && weights.peerMentionBoost > 0)
      reasons(candidate.id).push({ kind: 'author', peerId: candidate.peerId })
  }
  const total = new Map(own)
  if (weights.neighbourWeight > 0) {
    for (const candidate of candidates) {
      const spread = weights.neighbourWeight * (own.get(candidate.id) ?? 0)
      if (spread <= 0) continue
      for (const neighbour of candidate.neighbours) {
        total.set(neighbour, (total.get(neighbour) ?? 0) + spread)
        sessionOf.set(neighbour, candidate.sessionId)
        reasons(neighbour).push({ kind: 'neighbour_of', messageId: candidate.id })
      }
    }
  }
  const scored = [...total.entries()].map(([id, score]) => {
    const session = sessionOf.get(id)
    const context = weights.sessionWeight * (session === undefined ? 0 : (sessionBest.get(session) ?? 0))
    if (context > 0) reasons(id).push({ kind: 'session_context' })
    return { id, score: score + context, reasons: why.get(id) ?? [] }
  })
  // Ties keep the keyword order (then message order), so equal scores never shuffle between runs.
  const keywordRank = new Map(candidates.map((candidate, index) => [candidate.id, index]))
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      (keywordRank.get(a.id) ?? Number.MAX_SAFE_INTEGER) -
        (keywordRank.get(b.id) ?? Number.MAX_SAFE_INTEGER) ||
      a.id - b.id,
  )
  return scored
}
