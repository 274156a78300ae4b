import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'

/** The workspaces cases of the store contract, run against every backend. */
export function describeWorkspacesContract(backend: BackendUnderTest) {
  describe('workspaces repository', () => {
    const stores = backend.use()

    it('lists only the workspaces a filter matches', async () => {
      const store = await stores.open()
      for (const id of ['a', 'b', 'c']) await store.workspaces.getOrCreate(id)
      const some = await store.workspaces.list({}, { op: 'in', field: 'id', values: ['c', 'a'] })
      expect(some.items.map((w) => w.id)).toEqual(['a', 'c'])
      expect(some.total).toBe(2)
      expect((await store.workspaces.list({}, { op: 'in', field: 'id', values: [] })).total).toBe(0)
    })
  })
}
