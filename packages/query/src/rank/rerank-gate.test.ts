import { describe, expect, it } from 'vitest'
import type { FusedItem, RankedList } from './fusion'
import { combineRerank, disagreementOf } from './rerank-gate'

const item = (key: string, score: number): FusedItem => ({
  key,
  score,
  similarity: null,
  reasons: [{ kind: 'author', peerId: key }],
})

describe('disagreementOf', () => {
  const kw = (...keys: string[]): RankedList => ({
    kind: 'keyword',
    source: 'chunks',
    items: keys.map((key) => ({ key })),
  })
  const vec = (...keys: string[]): RankedList => ({
    kind: 'vector',
    items: keys.map((key) => ({ key, similarity: 0.5 })),
  })
  it('is 0 when both agree on #1, or when only one kind of list answered', () => {
    expect(disagreementOf([kw('a', 'b'), vec('a', 'c')])).toBe(0)
    expect(disagreementOf([kw('a'), vec()])).toBe(0)
    expect(disagreementOf([kw(), vec('a')])).toBe(0)
  })
  it('is 1 when neither #1 appears in the other list', () => {
    expect(disagreementOf([kw('a'), vec('b')])).toBe(1)
  })
  it('grows with how deep each #1 sits in the other list', () => {
    expect(disagreementOf([kw('a', 'b'), vec('b', 'a')])).toBeCloseTo(0.5)
    expect(disagreementOf([kw('a', 'x', 'b'), vec('b', 'y', 'a')])).toBeCloseTo(1 - 1 / 3)
  })
  it('takes the vector #1 at its best rank over every keyword list', () => {
    const messages: RankedList = { kind: 'keyword', source: 'messages', items: [{ key: 'b' }] }
    expect(disagreementOf([kw('a'), vec('b', 'a'), messages])).toBeCloseTo(0.25)
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
    expect(out[0]!.reasons).toEqual([
      { kind: 'author', peerId: 'b' },
      { kind: 'rerank', score: 5 },
    ])
  })
  it('keeps a skipped candidate at its fused score and clamps out-of-range judgements', () => {
    const out = combineRerank([item('a', 0.04), item('b', 0.04)], new Map([['b', 9]]), 0.5)
    expect(out.map((i) => [i.key, i.score])).toEqual([
      ['a', 1],
      ['b', 1],
    ])
  })
})
