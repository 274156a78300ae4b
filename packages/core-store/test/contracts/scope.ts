import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'

/**
 * A transaction is isolated from the store's own calls, on every backend. (On SQLite and PGlite, one
 * connection, those calls also wait for it; a server's pool serves them at once. That ordering is tested
 * per backend, not here.)
 */
export function describeScopeContract(backend: BackendUnderTest) {
  describe('store scopes and transactions', () => {
    const stores = backend.use()

    it('base-scope reads never see an open transaction, and base-scope writes never join it', async () => {
      const store = await stores.open()
      await store.messages.insertBatch('w', 's', [{ peerId: 'u', content: 'before' }])
      let release!: () => void
      const gate = new Promise<void>((resolve) => {
        release = resolve
      })
      let inserted!: () => void
      const insertedInside = new Promise<void>((resolve) => {
        inserted = resolve
      })
      const tx = store.transaction(async (scope) => {
        await scope.messages.insertBatch('w', 's', [
          { peerId: 'u', content: 'postgres inside the transaction' },
        ])
        inserted()
        await gate
        throw new Error('roll it back')
      })
      await insertedInside
      const search = store.fullText.search('messages', 'postgres', { workspaceId: 'w', limit: 5 })
      const write = store.messages.insertBatch('w', 's', [{ peerId: 'u', content: 'written outside' }])
      release()
      await expect(tx).rejects.toThrow('roll it back')
      expect(await search).toEqual([])
      await write
      const contents = (await store.messages.listBySession('w', 's')).items.map((m) => m.content)
      expect(contents).toEqual(['before', 'written outside'])
    })
  })
}
