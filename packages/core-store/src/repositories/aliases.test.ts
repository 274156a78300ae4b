import { describe, expect, it } from 'vitest'
import { expectStoreError, manualClock, useTempStores } from '../../test/store-harness'

describe('aliases repository', () => {
  const stores = useTempStores()

  it('claims a surface for the first canonical only and lists aliases by surface', async () => {
    const store = stores.open({ clock: manualClock().clock })
    expect(await store.aliases.claim('w', 'user', 'alice')).toBe(true)
    expect(await store.aliases.claim('w', 'user', 'bob')).toBe(false)
    expect(await store.aliases.claim('w', 'pg', 'postgresql')).toBe(true)
    expect(await store.aliases.listAll('w')).toEqual([
      { workspaceId: 'w', surface: 'pg', canonical: 'postgresql', createdAt: '2026-03-01T10:00:00.000Z' },
      { workspaceId: 'w', surface: 'user', canonical: 'alice', createdAt: '2026-03-01T10:00:00.000Z' },
    ])
    expect(await store.aliases.listAll('other')).toEqual([])
    await expectStoreError(store.aliases.claim('w', '', 'x'), 'INVALID_INPUT')
  })
})
