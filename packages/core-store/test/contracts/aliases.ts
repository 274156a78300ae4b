import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'
import { expectStoreError, manualClock } from '../store-harness'

/** The aliases cases of the store contract, run against every backend. */
export function describeAliasesContract(backend: BackendUnderTest) {
  describe('aliases repository', () => {
    const stores = backend.use()

    it('claims an imported alias (with its createdAt) once per surface and lists a workspace by surface', async () => {
      const store = await stores.open()
      await store.workspaces.getOrCreate('w')
      const alias = {
        workspaceId: 'w',
        surface: 'pg',
        canonical: 'postgresql',
        createdAt: '2026-01-01T00:00:00.000Z',
      }
      expect(
        await store.aliases.claim(alias.workspaceId, alias.surface, alias.canonical, alias.createdAt),
      ).toBe(true)
      expect(await store.aliases.claim('w', 'pg', 'other', alias.createdAt)).toBe(false)
      await store.aliases.claim('w', 'db', 'postgresql', alias.createdAt)
      await store.aliases.claim('x', 'pg', 'postgresql', alias.createdAt)
      expect(await store.aliases.listAll('w')).toEqual([{ ...alias, surface: 'db' }, alias])
      await expectStoreError(store.aliases.claim('w', '', 'postgresql'), 'INVALID_INPUT')
    })

    it('claims a surface for the first canonical only and lists aliases by surface', async () => {
      const store = await stores.open({ clock: manualClock().clock })
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
}
