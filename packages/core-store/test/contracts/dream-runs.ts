import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'

/** The dream runs cases of the store contract, run against every backend. */
export function describeDreamRunsContract(backend: BackendUnderTest) {
  describe('dream runs repository', () => {
    const stores = backend.use()

    it('lists the runs still marked running', async () => {
      const store = await stores.open()
      const first = await store.dreamRuns.start('w', { extractor: 'x', promptVersion: 'v1' })
      const done = await store.dreamRuns.start('w', { extractor: 'x', promptVersion: 'v1' })
      await store.dreamRuns.finish('w', done, { status: 'ok' })
      await store.dreamRuns.start('other', { extractor: 'x', promptVersion: 'v1' })
      expect((await store.dreamRuns.listRunning('w')).map((r) => [r.id, r.status])).toEqual([
        [first, 'running'],
      ])
    })
  })
}
