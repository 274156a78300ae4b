import { describe, expect, it } from 'vitest'
import { expectStoreError, useTempStores } from '../../test/store-harness'

describe('search log repository', () => {
  const stores = useTempStores()

  it('gives per-day volume, empty results and latency percentiles over the recent window', async () => {
    const store = stores.open()
    const row = (at: string, hits: number, latency: number) => ({
      workspace_id: 'w',
      surface: 'augment',
      query: 'q',
      hits,
      latency_ms: latency,
      created_at: at,
    })
    await store.db
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
