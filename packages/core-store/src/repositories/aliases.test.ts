import { describe, expect, it } from 'vitest'
import { expectStoreError, useTempStores } from '../../test/store-harness'

describe('aliases repository', () => {
  const stores = useTempStores()

  it('stores an imported alias once per surface and lists a workspace by surface', async () => {
    const store = stores.open()
    await store.workspaces.getOrCreate('w')
    const alias = {
      workspaceId: 'w',
      surface: 'pg',
      canonical: 'postgresql',
      createdAt: '2026-01-01T00:00:00.000Z',
    }
    expect(await store.aliases.insertIfAbsent(alias)).toBe(true)
    expect(await store.aliases.insertIfAbsent({ ...alias, canonical: 'other' })).toBe(false)
    await store.aliases.insertIfAbsent({ ...alias, surface: 'db' })
    await store.aliases.insertIfAbsent({ ...alias, workspaceId: 'x' })
    expect(await store.aliases.listAll('w')).toEqual([{ ...alias, surface: 'db' }, alias])
    await expectStoreError(store.aliases.insertIfAbsent({ ...alias, surface: '' }), 'INVALID_INPUT')
  })
})
