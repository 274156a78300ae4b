import { describe, expect, it } from 'vitest'
import { builderOf } from '../../src/store/builder'
import type { BackendUnderTest } from '../backends'
import { expectStoreError, manualClock } from '../store-harness'

/** The search log cases of the store contract, run against every backend. */
export function describeSearchLogContract(backend: BackendUnderTest) {
  describe('search log repository', () => {
    const stores = backend.use()

    it('summarises one workspace: volume, empty searches, means, surfaces, recent latencies and misses', async () => {
      const { clock, advance } = manualClock()
      const store = await stores.open({ clock })
      const searches = [
        { surface: 'notes', query: 'deploy', hits: 2, topScore: 0.8, latencyMs: 5 },
        { surface: 'augment', query: 'which db', hits: 0, topScore: null, latencyMs: 7 },
        { surface: 'notes', query: 'vim', hits: 4, topScore: 0.4, latencyMs: 3 },
        { surface: 'notes', query: 'kafka', hits: 0, topScore: Number.NaN, latencyMs: 9 },
      ]
      for (const search of searches) {
        await store.searchLog.record('w', { candidates: 10, ...search })
        advance(1000)
      }
      await store.searchLog.record(
        'other',
        { surface: 'notes', query: 'elsewhere', candidates: 0, hits: 0, topScore: null, latencyMs: 100 },
        '2026-01-01T00:00:00.000Z',
      )
      expect(await store.searchLog.summary('w', { latencyWindow: 3, recentMisses: 5 })).toEqual({
        searches: 4,
        empty: 2,
        avgHits: 1.5,
        avgTopScore: expect.closeTo(0.6, 10),
        bySurface: { augment: 1, notes: 3 },
        latenciesMs: [9, 3, 7],
        recentMisses: [
          { query: 'kafka', surface: 'notes', at: '2026-03-01T10:00:03.000Z' },
          { query: 'which db', surface: 'augment', at: '2026-03-01T10:00:01.000Z' },
        ],
      })
      expect(
        (await store.searchLog.summary('other', { latencyWindow: 3, recentMisses: 5 })).recentMisses,
      ).toEqual([{ query: 'elsewhere', surface: 'notes', at: '2026-01-01T00:00:00.000Z' }])
    })

    it('summarises an empty log as zeros and nulls', async () => {
      const store = await stores.open()
      expect(await store.searchLog.summary('w', { latencyWindow: 10, recentMisses: 10 })).toEqual({
        searches: 0,
        empty: 0,
        avgHits: 0,
        avgTopScore: null,
        bySurface: {},
        latenciesMs: [],
        recentMisses: [],
      })
    })

    it('refuses counts that are not whole numbers and latencies that are not finite', async () => {
      const store = await stores.open()
      const entry = {
        surface: 'notes',
        query: 'q',
        candidates: 1,
        hits: 1,
        topScore: 1,
        latencyMs: 1,
      }
      await expectStoreError(store.searchLog.record('w', { ...entry, hits: -1 }), 'INVALID_INPUT')
      await expectStoreError(
        store.searchLog.record('w', { ...entry, latencyMs: Number.POSITIVE_INFINITY }),
        'INVALID_INPUT',
      )
      await expectStoreError(store.searchLog.record('', entry), 'INVALID_INPUT')
      await expectStoreError(store.searchLog.record('w', entry, 'yesterday'), 'INVALID_INPUT')
    })

    it('records searches per workspace, oldest first, storing a non-finite top score as null', async () => {
      const { clock } = manualClock()
      const store = await stores.open({ clock })
      const entry = {
        surface: 'augment',
        query: 'postgres',
        candidates: 4,
        hits: 2,
        topScore: 0.5,
        latencyMs: 3.5,
      }
      await store.searchLog.record('w', entry)
      await store.searchLog.record(
        'w',
        { ...entry, query: 'nothing', hits: 0, topScore: Number.NaN },
        '2026-03-02T00:00:00.000Z',
      )
      await store.searchLog.record('other', entry)
      const rows = await store.searchLog.list('w')
      expect(rows).toEqual([
        { ...entry, id: rows[0]!.id, workspaceId: 'w', createdAt: '2026-03-01T10:00:00.000Z' },
        {
          ...entry,
          id: rows[1]!.id,
          query: 'nothing',
          hits: 0,
          topScore: null,
          workspaceId: 'w',
          createdAt: '2026-03-02T00:00:00.000Z',
        },
      ])
    })
  })

  describe('search log repository: trim', () => {
    const stores = backend.use()

    it('deletes the oldest rows of one workspace outside the age and row bounds, a slice at a time', async () => {
      const store = await stores.open()
      const entry = { surface: 'notes', query: 'q', candidates: 1, hits: 1, topScore: 1, latencyMs: 1 }
      const days = ['01', '02', '03', '03', '04', '05']
      for (const day of days) await store.searchLog.record('w', entry, `2026-01-${day}T00:00:00.000Z`)
      await store.searchLog.record('other', entry, '2026-01-01T00:00:00.000Z')
      const left = async (ws = 'w') => (await store.searchLog.list(ws)).map((r) => r.createdAt.slice(8, 10))
      const bounds = { before: null, keepNewest: null, limit: 100 }

      expect(await store.searchLog.trim('w', bounds)).toBe(0)
      expect(await store.searchLog.trim('w', { ...bounds, before: '2026-01-02T00:00:00.000Z' })).toBe(1)
      expect(await left()).toEqual(['02', '03', '03', '04', '05'])
      // Of two rows at the same time, the later-inserted one is the newer.
      expect(await store.searchLog.trim('w', { ...bounds, keepNewest: 3, limit: 1 })).toBe(1)
      expect(await store.searchLog.trim('w', { ...bounds, keepNewest: 3, limit: 1 })).toBe(1)
      expect(await store.searchLog.trim('w', { ...bounds, keepNewest: 3, limit: 1 })).toBe(0)
      const ids = (await store.searchLog.list('w')).map((r) => r.createdAt.slice(8, 10))
      expect(ids).toEqual(['03', '04', '05'])
      expect(
        await store.searchLog.trim('w', { before: '2026-01-05T00:00:00.000Z', keepNewest: 2, limit: 9 }),
      ).toBe(2)
      expect(await left()).toEqual(['05'])
      expect(await left('other')).toEqual(['01'])
      expect(await store.searchLog.trim('w', { ...bounds, keepNewest: 0 })).toBe(1)

      await expectStoreError(store.searchLog.trim('w', { ...bounds, before: 'soon' }), 'INVALID_INPUT')
      await expectStoreError(store.searchLog.trim('w', { ...bounds, keepNewest: -1 }), 'INVALID_INPUT')
      await expectStoreError(store.searchLog.trim('w', { ...bounds, limit: 0 }), 'INVALID_INPUT')
      await expectStoreError(store.searchLog.trim('', bounds), 'INVALID_INPUT')
    })
  })

  describe('search log repository: daily figures', () => {
    const stores = backend.use()

    it('gives per-day volume, empty results and latency percentiles over the recent window', async () => {
      const store = await stores.open()
      const row = (at: string, hits: number, latency: number) => ({
        workspace_id: 'w',
        surface: 'augment',
        query: 'q',
        hits,
        latency_ms: latency,
        created_at: at,
      })
      await builderOf(store)
        .insertInto('search_log')
        .values([
          row('2026-01-01T09:00:00.000Z', 3, 40),
          row('2026-01-02T09:00:00.000Z', 0, 10),
          row('2026-01-02T10:00:00.000Z', 2, 30),
          row('2026-01-02T11:00:00.000Z', 1, 20),
          { ...row('2026-01-02T12:00:00.000Z', 0, 99), workspace_id: 'other' },
        ])
        .execute()
      expect(await store.searchLog.dailyFigures('w')).toEqual([
        { day: '2026-01-01', searches: 1, empty: 0, p50Ms: 40, p95Ms: 40 },
        { day: '2026-01-02', searches: 3, empty: 1, p50Ms: 20, p95Ms: 30 },
      ])
      expect(await store.searchLog.dailyFigures('w', { window: 2 })).toEqual([
        { day: '2026-01-02', searches: 2, empty: 0, p50Ms: 20, p95Ms: 30 },
      ])
      await expectStoreError(store.searchLog.dailyFigures('w', { window: 0 }), 'INVALID_INPUT')
    })
  })
}
