import { afterEach, describe, expect, it } from 'vitest'
import { openTestMemory, type TestMemory } from '../../test/harness'
import { recordSearch } from './search-log'
import { percentile } from './stats'

let t: TestMemory
afterEach(async () => {
  await t?.close()
})

describe('percentile', () => {
  it('uses the nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1)
    expect(percentile(values, 0.5)).toBe(50)
    expect(percentile(values, 0.95)).toBe(95)
    expect(percentile([7], 0.95)).toBe(7)
    expect(percentile([], 0.5)).toBeNull()
  })
})

describe('stats', () => {
  it('is all zeros on an empty store', async () => {
    t = await openTestMemory()
    const stats = await t.memory.stats()
    expect(Object.values(stats.counts).every((n) => n === 0)).toBe(true)
    expect(stats.dreams).toEqual([])
    expect(stats.search).toEqual({
      searches: 0,
      emptyRate: 0,
      avgHits: 0,
      avgTopScore: null,
      latencyMs: { p50: null, p95: null },
      bySurface: {},
      recentMisses: [],
    })
  })

  it('aggregates the search log: volume, empty rate, hits, latency percentiles, recent misses', async () => {
    t = await openTestMemory()
    for (let i = 1; i <= 40; i++) {
      await recordSearch(
        t.store,
        'default',
        {
          surface: i % 4 === 0 ? 'notes' : 'augment',
          query: `query ${i}`,
          candidates: 10,
          hits: i % 5 === 0 ? 0 : 2,
          topScore: i % 5 === 0 ? null : 0.5,
          latencyMs: i,
        },
        t.store.context.now(),
      )
    }
    await recordSearch(
      t.store,
      'elsewhere',
      {
        surface: 'notes',
        query: 'other workspace',
        candidates: 0,
        hits: 0,
        topScore: null,
        latencyMs: 1000,
      },
      t.store.context.now(),
    )
    const { search } = await t.memory.stats()
    expect(search).toMatchObject({
      searches: 40,
      emptyRate: 0.2,
      avgHits: 1.6,
      avgTopScore: 0.5,
      latencyMs: { p50: 20, p95: 38 },
      bySurface: { augment: 30, notes: 10 },
    })
    expect(search.recentMisses.map((miss) => miss.query)).toEqual([
      'query 40',
      'query 35',
      'query 30',
      'query 25',
      'query 20',
      'query 15',
      'query 10',
      'query 5',
    ])
  })

  it('reports table counts per workspace, edge states and the dream history, newest first', async () => {
    t = await openTestMemory()
    await t.memory.capture(
      [
        { role: 'user', content: 'We switched from MySQL to Postgres last month for the billing service.' },
        { role: 'user', content: 'I prefer pnpm over npm for every project.' },
      ],
      { dream: true },
    )
    t.clock.advanceDays(1)
    await t.memory.dream()
    await t.memory.log({ role: 'user', content: 'elsewhere', workspaceId: 'other' })
    await t.memory.augment('postgres')
    const stats = await t.memory.stats()
    expect(stats.counts).toMatchObject({ messages: 2, sessions: 1, peers: 1, dream_runs: 2, search_log: 1 })
    expect(stats.counts.knowledge_graph).toBe(
      stats.edges.active + stats.edges.stale + stats.edges.retracted + stats.edges.derived,
    )
    expect(stats.edges.active).toBeGreaterThan(0)
    expect(stats.dreams.map((run) => [run.status, run.extractor])).toEqual([
      ['ok', 'rules'],
      ['ok', 'rules'],
    ])
    expect(stats.dreams[0]?.startedAt).toBe('2026-03-02T09:00:00.000Z')
    expect(stats.dreams[1]?.chunksProcessed).toBeGreaterThan(0)
    expect(stats.dreams[0]?.chunksProcessed).toBe(0)
    expect(stats.vectors.mode).toMatch(/sqlite-vec|js-scan/)
    expect((await t.memory.stats({ workspaceId: 'other' })).counts.messages).toBe(1)
  })
})
