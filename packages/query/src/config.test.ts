import { describe, expect, it } from 'vitest'
import { DEFAULT_QUERY_CONFIG, resolveQueryConfig } from './config'

describe('QueryConfig', () => {
  it('ships the walkthrough §9 defaults (hit count and context scoring from the LoCoMo evaluation), deeply frozen', () => {
    expect(DEFAULT_QUERY_CONFIG).toMatchObject({
      ftsTopK: 20,
      keywordChunks: false,
      vectorChunkWeight: 0.5,
      peerMentionBoost: 1,
      neighbourWeight: 0.3,
      neighbourSpan: 2,
      sessionWeight: 0.3,
      rankWeights: { hit: 1, graph: 0.6, episode: 0.6, procedure: 0.6, note: 0.95 },
      rerankTopK: 20,
      rerankAmbiguityThreshold: 0.6,
      graphTopKPerEntity: 3,
      graphSemanticTopK: 10,
      graphPredicateTopK: 10,
      graphTopK: 8,
      graphRecencyHalfLifeDays: 30,
      graphRecencyRecentDays: 7,
      graphPredicateBoost: 1.5,
      graphTokenOverlapWeight: 0.5,
      graphTokenOverlapThreshold: 20,
      graphTokenOverlapMaxPerEntity: 5,
      fusion: 'rrf',
      rrfK: 60,
      notesMinSimilarity: 0.4,
      notesRelativeCutoff: 0.15,
    })
    expect(Object.isFrozen(DEFAULT_QUERY_CONFIG)).toBe(true)
    expect(Object.isFrozen(DEFAULT_QUERY_CONFIG.rankWeights)).toBe(true)
    expect(Object.isFrozen(DEFAULT_QUERY_CONFIG.opposingPredicates[0])).toBe(true)
  })

  it('merges overrides (rank weights key by key) into a new frozen config', () => {
    const config = resolveQueryConfig({ graphTopK: 4, rankWeights: { note: 2 } as never })
    expect(config.graphTopK).toBe(4)
    expect(config.rankWeights).toEqual({ ...DEFAULT_QUERY_CONFIG.rankWeights, note: 2 })
    expect(Object.isFrozen(config)).toBe(true)
    expect(DEFAULT_QUERY_CONFIG.graphTopK).toBe(8)
  })

  it.each([
    [{ ftsTopK: 1.5 }, 'query config ftsTopK must be a positive integer, got 1.5'],
    [{ graphPredicateBoost: -1 }, 'query config graphPredicateBoost must be a finite number >= 0, got -1'],
    [
      { graphRecencyHalfLifeDays: 0 },
      'query config graphRecencyHalfLifeDays must be a finite number > 0, got 0',
    ],
    [
      { lexicalRankDecayK: Number.NaN },
      'query config lexicalRankDecayK must be a finite number > 0, got NaN',
    ],
    [{ fusion: 'borda' as never }, "query config fusion must be 'rrf' or 'lexical-bonus', got borda"],
    [
      { rankWeights: { hit: -2 } as never },
      'query config rankWeights.hit must be a finite number >= 0, got -2',
    ],
  ])('refuses %j', (overrides, message) => {
    expect(() => resolveQueryConfig(overrides)).toThrow(message)
  })
})
