import { describe, expect, it } from 'vitest'
import { DEFAULT_QUERY_CONFIG } from '../config'
import { rankAll } from './final-order'

const item = (id: number | string, score: number) => ({ id, score, messageIds: [1] })

describe('rankAll', () => {
  it('scores each item relative to the best of its kind, times the kind weight', () => {
    const ranked = rankAll(
      {
        hit: [item(1, 0.03), item(2, 0.015)],
        graph: [item(10, 1.2), item(11, 1.08)],
        episode: [item('e', 0.016)],
        procedure: [],
        note: [item('n', 0.4)],
      },
      { hit: 1, graph: 0.9, episode: 0.8, procedure: 0.8, note: 0.95 },
    )
    expect(ranked.map((r) => [r.kind, r.id, Number(r.score.toFixed(3))])).toEqual([
      ['hit', 1, 1],
      ['note', 'n', 0.95],
      ['graph', 10, 0.9],
      ['graph', 11, 0.81],
      ['episode', 'e', 0.8],
      ['hit', 2, 0.5],
    ])
    expect(ranked[0]!.messageIds).toEqual([1])
  })

  it('by default puts graph facts and episodes after hits that are at least 0.6 of the best hit', () => {
    const ranked = rankAll(
      {
        hit: [item(1, 0.03), item(2, 0.02), item(3, 0.015)],
        graph: [item(10, 1.2)],
        episode: [item('e', 0.016)],
        procedure: [],
        note: [],
      },
      DEFAULT_QUERY_CONFIG.rankWeights,
    )
    expect(ranked.map((r) => r.id)).toEqual([1, 2, 10, 'e', 3])
  })

  it('gives zero to items of a kind whose best score is zero and keeps kind order on ties', () => {
    const ranked = rankAll(
      { hit: [item(1, 0)], graph: [item(2, 5)], episode: [], procedure: [item('p', 1)], note: [] },
      { hit: 1, graph: 0.8, episode: 1, procedure: 0.8, note: 1 },
    )
    expect(ranked.map((r) => [r.kind, r.score])).toEqual([
      ['graph', 0.8],
      ['procedure', 0.8],
      ['hit', 0],
    ])
  })
})
