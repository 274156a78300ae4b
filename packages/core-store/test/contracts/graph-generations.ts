import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'
import { expectStoreError } from '../store-harness'

/** The graph generation cases of the store contract, run against every backend. */
export function describeGraphGenerationsContract(backend: BackendUnderTest) {
  describe('graph generations repository', () => {
    const stores = backend.use()

    it('starts at 0 and advances by one per workspace', async () => {
      const store = await stores.open()
      expect(await store.graphGenerations.current('w')).toBe(0)
      expect(await store.graphGenerations.advance('w')).toBe(1)
      expect(await store.graphGenerations.advance('w')).toBe(2)
      expect(await store.graphGenerations.current('w')).toBe(2)
      expect(await store.graphGenerations.current('other')).toBe(0)
      await expectStoreError(store.graphGenerations.current(''), 'INVALID_INPUT')
      await expectStoreError(store.graphGenerations.advance(''), 'INVALID_INPUT')
    })

    it('counts every concurrent advance once, and another connection sees the result', async () => {
      const store = await stores.open()
      const other = await store.fork()
      try {
        const advanced = await Promise.all(
          Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? store : other).graphGenerations.advance('w')),
        )
        expect([...advanced].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1))
        expect(await other.graphGenerations.current('w')).toBe(12)
      } finally {
        await other.close()
      }
    })

    it('an advance inside a transaction that rolls back is undone', async () => {
      const store = await stores.open()
      await store.graphGenerations.advance('w')
      await expect(
        store.transaction(async (tx) => {
          await tx.graphGenerations.advance('w')
          throw new Error('roll back')
        }),
      ).rejects.toThrow('roll back')
      expect(await store.graphGenerations.current('w')).toBe(1)
    })
  })
}
