import { describe, expect, it } from 'vitest'
import { perConversation, rankSessions, scoreQuestion, sessionOfTurn, standardDeviation } from './score'

describe('session-level recall', () => {
  it('takes the session of a turn id', () => {
    expect(sessionOfTurn('D12:3')).toBe('D12')
    expect(sessionOfTurn('D4')).toBe('D4')
  })

  it('ranks sessions by their first turn in rank order, each once', () => {
    expect(rankSessions(['D3:1', 'D1:4', 'D3:2', 'D2:9', 'D1:1'])).toEqual(['D3', 'D1', 'D2'])
    expect(rankSessions([])).toEqual([])
  })

  it('is the share of evidence sessions among the first k sessions', () => {
    // Seven turns of session D1 come first, so its evidence turn D1:9 is outside the top 5 turns but
    // its session is the first session.
    const ranked = [
      ...Array.from({ length: 7 }, (_, i) => `D1:${i + 1}`),
      ...Array.from({ length: 6 }, (_, i) => `D${i + 2}:1`),
      'D1:9',
    ]
    const score = scoreQuestion(1, ['D1:9', 'D8:2'], ranked)
    expect(score.recall).toEqual({ 5: 0, 10: 0, 20: 0.5 })
    // Sessions in rank order: D1..D7; D8 never appears.
    expect(score.sessionRecall).toEqual({ 5: 0.5, 10: 0.5, 20: 0.5 })
  })

  it('counts a session once however many evidence turns it holds', () => {
    const ranked = ['D2:1', 'D3:1', 'D4:1', 'D5:1', 'D6:1', 'D7:1']
    expect(scoreQuestion(2, ['D7:4', 'D7:5', 'D2:8'], ranked).sessionRecall).toEqual({ 5: 0.5, 10: 1, 20: 1 })
  })
})

describe('per-conversation recall', () => {
  it('averages recall@10 of categories 1-4 per conversation, in first-seen order', () => {
    const ranked = ['D1:1', 'D1:2']
    const scores = [
      scoreQuestion(4, ['D1:1'], ranked, 'conv-b'),
      scoreQuestion(1, ['D1:1', 'D2:1'], ranked, 'conv-a'),
      scoreQuestion(5, ['D9:9'], ranked, 'conv-a'),
      scoreQuestion(3, ['D1:2'], ranked, 'conv-b'),
    ]
    expect(perConversation(scores)).toEqual([
      { conversation: 'conv-b', questions: 2, recall: 1, sessionRecall: 1 },
      { conversation: 'conv-a', questions: 1, recall: 0.5, sessionRecall: 0.5 },
    ])
  })

  it('has a sample standard deviation', () => {
    expect(standardDeviation([0.7, 0.8, 0.9])).toBe(0.1)
    expect(standardDeviation([2, 4, 4, 4, 5, 5, 7, 9])).toBe(2.138)
    expect(standardDeviation([0.75])).toBe(0)
    expect(standardDeviation([])).toBe(0)
  })
})
