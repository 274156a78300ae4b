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
    expect(scored).toEqual([{ id: 1, score: 0, sessionId: 's1', reasons: [] }])
  })
})

describe('scoreInContext: meaning, question turns, time and authors', () => {
  it('adds the similarity above the floor, rescaled, and reaches turns no keyword matched', () => {
    const scored = scoreInContext(
      [candidate(1, 1, { similarity: 0.2 }), candidate(2, 0, { similarity: 0.7 }), candidate(3, 0.5)],
      { ...OFF, denseWeight: 1, denseFloor: 0.2 },
    )
    expect(scored.map((item) => item.id)).toEqual([1, 2, 3])
    expect(scored[1]!.score).toBeCloseTo(0.625)
    expect(scored[1]!.reasons).toEqual([{ kind: 'semantic', similarity: 0.7 }])
    expect(scored[0]!.reasons).toEqual([])
  })

  it('weighs a turn that asks less, and gives its reply the reply share instead of the neighbour share', () => {
    const scored = scoreInContext([candidate(10, 1, { asks: true, before: [9], after: [11, 12] })], {
      ...OFF,
      neighbourWeight: 0.3,
      questionTurnWeight: 0.5,
      replyWeight: 0.8,
    })
    expect(scored.map((item) => [item.id, item.score])).toEqual([
      [10, 0.5],
      [11, 0.4],
      [9, 0.15],
      [12, 0.15],
    ])
    expect(scored[1]!.reasons).toEqual([{ kind: 'reply_to', messageId: 10 }])
    expect(scored[2]!.reasons).toEqual([{ kind: 'neighbour_of', messageId: 10 }])
  })

  it('gives the turns of a user ↔ assistant exchange their own question, reply and assistant levers', () => {
    const levers = {
      ...OFF,
      neighbourWeight: 0.3,
      questionTurnWeight: 0.5,
      replyWeight: 0.8,
      assistantExchange: { questionTurnWeight: 1, replyWeight: 0.1, assistantTurnWeight: 0.5 },
    }
    const request = candidate(10, 1, { asks: true, after: [11], exchange: 'assistant' })
    const answer = candidate(11, 1, { role: 'assistant', before: [10], exchange: 'assistant' })
    expect(scoreInContext([request, answer], levers).map((item) => [item.id, item.score])).toEqual([
      [10, 1.15],
      [11, 0.6],
    ])
    // The same two turns between people: the question is discounted and hands most of its score on.
    const people = scoreInContext(
      [
        { ...request, exchange: 'people' },
        { ...answer, role: 'user', exchange: 'people' },
      ],
      levers,
    )
    expect(people.map((item) => [item.id, item.score])).toEqual([
      [11, 1.4],
      [10, 0.8],
    ])
  })

  it('gives the turns around a user ↔ assistant turn their own neighbour share', () => {
    const levers = { ...OFF, neighbourWeight: 0.3, assistantExchange: { neighbourWeight: 0 } }
    const turns = [
      candidate(20, 1, { after: [21, 22], exchange: 'assistant' }),
      candidate(21, 0, { role: 'assistant', before: [20], exchange: 'assistant' }),
    ]
    expect(scoreInContext(turns, levers).map((item) => [item.id, item.score])).toEqual([
      [20, 1],
      [21, 0],
    ])
    const people = turns.map((turn) => ({ ...turn, exchange: 'people' as const }))
    expect(scoreInContext(people, levers).map((item) => [item.id, item.score])).toEqual([
      [20, 1],
      [21, 0.3],
      [22, 0.3],
    ])
  })

  it('lifts a turn denying what the query asks ever happened, naming why', () => {
    const scored = scoreInContext([candidate(1, 1), candidate(2, 0.6, { denies: true })], {
      ...OFF,
      denialBoost: 1,
    })
    expect(scored.map((item) => [item.id, item.score])).toEqual([
      [2, 1.2],
      [1, 1],
    ])
    expect(scored[0]?.reasons).toContainEqual({ kind: 'denial' })
  })

  it('lifts a turn stating a standing rule, naming why', () => {
    const scored = scoreInContext([candidate(1, 1), candidate(2, 0.6, { statesRule: true })], {
      ...OFF,
      standingRuleBoost: 1,
    })
    expect(scored.map((item) => [item.id, item.score])).toEqual([
      [2, 1.2],
      [1, 1],
    ])
    expect(scored[0]!.reasons).toEqual([{ kind: 'standing_rule' }])
  })

  it('lifts turns naming a time and turns written in the named period', () => {
    const window = { from: '2023-07-01', to: '2023-08-15' }
    const scored = scoreInContext(
      [candidate(1, 1), candidate(2, 0.8, { mentionsTime: true }), candidate(3, 0.6, { inWindow: window })],
      { ...OFF, timeBoost: 1, windowBoost: 1 },
    )
    expect(scored.map((item) => [item.id, item.score])).toEqual([
      [2, 1.6],
      [3, 1.2],
      [1, 1],
    ])
    expect(scored[0]!.reasons).toEqual([{ kind: 'time_mention' }])
    expect(scored[1]!.reasons).toEqual([{ kind: 'date_window', ...window }])
  })

  it('weighs turns by peers the query does not name less, neighbours included', () => {
    const authors = new Map([[5, 'bob']])
    const scored = scoreInContext(
      [candidate(4, 1, { peerId: 'ann', after: [5] }), candidate(6, 1, { peerId: 'carol' })],
      {
        ...OFF,
        mentionedPeers: new Set(['ann']),
        peerMentionBoost: 1,
        neighbourWeight: 0.5,
        otherAuthorWeight: 0.5,
        authorOf: (id) => authors.get(id),
      },
    )
    expect(scored.map((item) => [item.id, item.score])).toEqual([
      [4, 2],
      [6, 0.5],
      [5, 0.5],
    ])
    // With no peer named, nobody is weighed down.
    const plain = scoreInContext([candidate(6, 1, { peerId: 'carol' })], { ...OFF, otherAuthorWeight: 0.5 })
    expect(plain[0]!.score).toBe(1)
  })
})
