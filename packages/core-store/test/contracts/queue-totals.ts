import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'
import { expectStoreError } from '../store-harness'

/** The queue totals cases of the store contract, run against every backend. */
export function describeQueueTotalsContract(backend: BackendUnderTest) {
  describe('queue totals repository', () => {
    const stores = backend.use()

    it('holds the highest total per session and workspace: raised, never lowered', async () => {
      const store = await stores.open()
      const first = await store.queueTotals.hold('w', [
        { sessionId: 's1', total: 5 },
        { sessionId: 's2', total: 2 },
        { sessionId: null, total: 7 },
      ])
      expect(first).toEqual(
        new Map<string | null, number>([
          ['s1', 5],
          ['s2', 2],
          [null, 7],
        ]),
      )
      const after = await store.queueTotals.hold('w', [
        { sessionId: 's1', total: 3 },
        { sessionId: 's2', total: 9 },
        { sessionId: null, total: 4 },
      ])
      expect(after).toEqual(
        new Map<string | null, number>([
          ['s1', 5],
          ['s2', 9],
          [null, 7],
        ]),
      )
      // Another workspace, and a session reported twice in one call (the higher wins).
      expect(
        await store.queueTotals.hold('other', [
          { sessionId: 's1', total: 1 },
          { sessionId: 's1', total: 4 },
        ]),
      ).toEqual(new Map([['s1', 4]]))
      expect(await store.queueTotals.hold('w', [])).toEqual(new Map())
    })

    it('gives concurrent servers the same totals, and goes with its workspace', async () => {
      const store = await stores.open()
      const other = await store.fork()
      try {
        await Promise.all(
          [3, 8, 5, 1].map((total, i) =>
            (i % 2 ? other : store).queueTotals.hold('w', [{ sessionId: 's', total }]),
          ),
        )
        expect(await other.queueTotals.hold('w', [{ sessionId: 's', total: 0 }])).toEqual(new Map([['s', 8]]))
      } finally {
        await other.close()
      }
      await store.workspaces.getOrCreate('w')
      await store.workspaces.delete('w')
      expect(await store.queueTotals.hold('w', [{ sessionId: 's', total: 2 }])).toEqual(new Map([['s', 2]]))
    })

    it('refuses a bad workspace, session or total', async () => {
      const store = await stores.open()
      await expectStoreError(store.queueTotals.hold('', [{ sessionId: 's', total: 1 }]), 'INVALID_INPUT')
      await expectStoreError(store.queueTotals.hold('w', [{ sessionId: '', total: 1 }]), 'INVALID_INPUT')
      await expectStoreError(store.queueTotals.hold('w', [{ sessionId: 's', total: -1 }]), 'INVALID_INPUT')
      await expectStoreError(store.queueTotals.hold('w', [{ sessionId: 's', total: 1.5 }]), 'INVALID_INPUT')
    })
  })
}
