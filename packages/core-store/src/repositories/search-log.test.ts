import { describe, expect, it } from 'vitest'
import { expectStoreError, manualClock, useTempStores } from '../../test/store-harness'

describe('search log repository', () => {
  const stores = useTempStores()

  it('records searches per workspace, oldest first, storing a non-finite top score as null', async () => {
    const { clock } = manualClock()
    const store = stores.open({ clock })
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
    await expectStoreError(store.searchLog.record('', entry), 'INVALID_INPUT')
  })
})
