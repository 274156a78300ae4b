import { describe, expect, it } from 'vitest'
import { type MessageCandidate, scoreInContext } from './context-scoring'

const OFF = { mentionedPeers: new Set<string>(), peerMentionBoost: 0, neighbourWeight: 0, sessionWeight: 0 }

function candidate(id: number, score: number, extra: Partial<MessageCandidate> = {}): MessageCandidate {
  return { id, score, sessionId: 's1', peerId: 'ann', before: [], after: [], ...extra }
}

describe('scoreInContext', () => {
  it('keeps the keyword order when every context signal is off', () => {
    const scored = scoreInContext([candidate(3, 5), candidate(1, 4), candidate(2, 4)], OFF)
    expect(scored.map((item) => [item.id, item.score])).toEqual([
      [3, 5],
      [1, 4],
      [2, 4],
    ])
    expect(scored.every((item) => item.reasons.length === 0)).toBe(true)
  })

  it('multiplies the score of messages written by a peer the query names', () => {
    const scored = scoreInContext([candidate(1, 3, { peerId: 'bob' }), candidate(2, 2, { peerId: 'ann' })], {
      ...OFF,
      mentionedPeers: new Set(['ann']),
      peerMentionBoost: 1,
    })
    expect(scored.map((item) => [item.id, item.score])).toEqual([
      [2, 4],
      [1, 3],
    ])
    expect(scored[0]!.reasons).toEqual([{ kind: 'author', peerId: 'ann' }])
  })

  it('passes a share of a message score to its adjacent turns, reaching turns with no keyword match', () => {
    const scored = scoreInContext([candidate(10, 4, { before: [9], after: [11] }), candidate(20, 1.5)], {
      ...OFF,
      neighbourWeight: 0.5,
    })
    expect(scored.map((item) => [item.id, item.score])).toEqual([
      [10, 4],
      [9, 2],
      [11, 2],
      [20, 1.5],
    ])
    expect(scored[1]!.reasons).toEqual([{ kind: 'neighbour_of', messageId: 10 }])
  })

  it('adds up the support of several matching neighbours', () => {
    const scored = scoreInContext(
      [
        candidate(1, 2, { after: [2] }),
        candidate(3, 2, { before: [2] }),
        candidate(2, 1, { before: [1], after: [3] }),
      ],
      { ...OFF, neighbourWeight: 0.5 },
    )
    expect(scored.find((item) => item.id === 2)?.score).toBe(3)
  })

  it("adds a share of the session's best score, so a well-matching session outranks a stray match", () => {
    const scored = scoreInContext(
      [
        candidate(1, 10, { sessionId: 'a' }),
        candidate(2, 3, { sessionId: 'b' }),
        candidate(3, 2.5, { sessionId: 'a' }),
      ],
      { ...OFF, sessionWeight: 0.3 },
    )
    expect(scored.map((item) => item.id)).toEqual([1, 3, 2])
    expect(scored.map((item) => item.score)).toEqual([13, 5.5, 3.9])
    expect(scored[1]!.reasons).toEqual([{ kind: 'session_context' }])
  })

  it('ignores negative keyword scores instead of subtracting them', () => {
    const scored = scoreInContext([candidate(1, -2, { after: [2] })], { ...OFF, neighbourWeight: 0.5 })
    expect(scored).toEqual([{ id: 1, score: 0, reasons: [] }])
  })
})
