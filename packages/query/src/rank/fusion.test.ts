import { describe, expect, it } from 'vitest'
import { DEFAULT_QUERY_CONFIG } from '../config'
import { fuseLists, type RankedList } from './fusion'

const lists: RankedList[] = [
  { kind: 'keyword', source: 'messages', items: [{ key: 'm:1' }, { key: 'm:2' }] },
  { kind: 'keyword', source: 'chunks', items: [{ key: 'c:7' }] },
  {
    kind: 'vector',
    items: [
      { key: 'c:8', similarity: 0.9 },
      { key: 'c:7', similarity: 0.5 },
    ],
  },
]

describe('fuseLists: rrf', () => {
  const rrf = { ...DEFAULT_QUERY_CONFIG, fusion: 'rrf' as const }

  it('scores Σ 1/(60 + rank) and explains every contributing list', () => {
    const fused = fuseLists(lists, rrf)
    expect(fused[0]).toEqual({
      key: 'c:7',
      score: 1 / 61 + 1 / 62,
      similarity: 0.5,
      reasons: [
        { kind: 'keyword', source: 'chunks', rank: 1 },
        { kind: 'semantic', similarity: 0.5 },
      ],
    })
    expect(fused.map((f) => f.key)).toEqual(['c:7', 'm:1', 'c:8', 'm:2'])
    expect(fused[3]!.score).toBeCloseTo(1 / 62)
  })

  it('breaks ties by first appearance, so equal ranks keep list order', () => {
    const fused = fuseLists([lists[0]!, lists[1]!], rrf)
    expect(fused.map((f) => f.key)).toEqual(['m:1', 'c:7', 'm:2'])
  })

  it("multiplies each list's contribution by its weight", () => {
    const weighted = [lists[0]!, { ...lists[2]!, weight: 0.5 }]
    const fused = fuseLists(weighted, rrf)
    expect(fused.map((f) => f.key)).toEqual(['m:1', 'm:2', 'c:8', 'c:7'])
    expect(fused[2]!.score).toBeCloseTo(0.5 / 61)
  })

  it('honours the k constant', () => {
    const fused = fuseLists([lists[1]!], { ...rrf, rrfK: 1 })
    expect(fused[0]!.score).toBe(0.5)
  })

  it('returns nothing for empty lists', () => {
    expect(fuseLists([], rrf)).toEqual([])
  })
})

describe('fuseLists: lexical-bonus', () => {
  const bonus = {
    ...DEFAULT_QUERY_CONFIG,
    fusion: 'lexical-bonus' as const,
    lexicalBoost: 0.1,
    lexicalRankDecayK: 10,
  }

  it('keeps cosine as the relevance and adds a bounded, rank-decayed keyword bonus', () => {
    const fused = fuseLists(lists, bonus)
    const byKey = new Map(fused.map((f) => [f.key, f.score]))
    expect(byKey.get('c:8')).toBeCloseTo(0.9)
    expect(byKey.get('c:7')).toBeCloseTo(0.5 + 0.1)
    expect(byKey.get('m:1')).toBeCloseTo(0.1)
    expect(byKey.get('m:2')).toBeCloseTo((0.1 * 10) / 11)
    expect(fused[0]!.key).toBe('c:8')
  })

  it('lets a keyword match break a tie between meanings but never overrule a clearly better one', () => {
    const close: RankedList[] = [
      { kind: 'keyword', source: 'chunks', items: [{ key: 'c:2' }] },
      {
        kind: 'vector',
        items: [
          { key: 'c:1', similarity: 0.62 },
          { key: 'c:2', similarity: 0.6 },
        ],
      },
    ]
    expect(fuseLists(close, bonus)[0]!.key).toBe('c:2')
    const far: RankedList[] = [
      close[0]!,
      {
        ...close[1]!,
        items: [
          { key: 'c:1', similarity: 0.8 },
          { key: 'c:2', similarity: 0.5 },
        ],
      },
    ]
    expect(fuseLists(far, bonus)[0]!.key).toBe('c:1')
  })

  it('uses known similarities for keyword-only items', () => {
    const fused = fuseLists([lists[1]!], bonus, new Map([['c:7', 0.7]]))
    expect(fused[0]).toMatchObject({ key: 'c:7', similarity: 0.7 })
    expect(fused[0]!.score).toBeCloseTo(0.8)
  })
})
