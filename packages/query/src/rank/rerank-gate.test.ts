import { describe, expect, it } from 'vitest'
import type { FusedItem, RankedList } from './fusion'
import { ambiguityOf, combineRerank } from './rerank-gate'

const item = (key: string, score: number): FusedItem => ({
  key,
  score,
  similarity: null,
  whyRetrieved: [key],
})

describe('ambiguityOf', () => {
  const disagree: RankedList[] = [
    { kind: 'keyword', label: 'chunks', items: [{ key: 'a' }] },
    { kind: 'vector', label: 'chunks', items: [{ key: 'b', similarity: 0.5 }] },
  ]
  it('is the runner-up score as a fraction of the leader when the lists disagree on #1', () => {
    expect(ambiguityOf([item('a', 0.02), item('b', 0.015)], disagree)).toBeCloseTo(0.75)
  })
  it('is 0 when every list agrees on its #1', () => {
    const agree: RankedList[] = [disagree[0]!, { ...disagree[1]!, items: [{ key: 'a', similarity: 0.9 }] }]
    expect(ambiguityOf([item('a', 0.03), item('b', 0.029)], agree)).toBe(0)
  })
  it('is 0 with fewer than two candidates', () => {
    expect(ambiguityOf([item('a', 1)], disagree)).toBe(0)
    expect(ambiguityOf([], disagree)).toBe(0)
  })
})

describe('combineRerank', () => {
  it('mixes the normalised fused score with the 1–5 judgement and records it', () => {
    const out = combineRerank(
      [item('a', 0.04), item('b', 0.02)],
      new Map([
        ['a', 1],
        ['b', 5],
      ]),
      0.5,
    )
    expect(out.map((i) => i.key)).toEqual(['b', 'a'])
    expect(out[0]!.score).toBeCloseTo(0.5 * 0.5 + 0.5 * 1)
    expect(out[1]!.score).toBeCloseTo(0.5 * 1 + 0.5 * 0)
    expect(out[0]!.whyRetrieved).toEqual(['b', 'rerank_5'])
  })
  it('keeps a skipped candidate at its fused score and clamps out-of-range judgements', () => {
    const out = combineRerank([item('a', 0.04), item('b', 0.04)], new Map([['b', 9]]), 0.5)
    expect(out.map((i) => [i.key, i.score])).toEqual([
      ['a', 1],
      ['b', 1],
    ])
  })
})
