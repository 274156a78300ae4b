import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'
import { seedChunks } from '../graph-seed'
import { expectStoreError, manualClock } from '../store-harness'

/** The mentions cases of the store contract, run against every backend. */
export function describeMentionsContract(backend: BackendUnderTest) {
  describe('mentions repository', () => {
    const stores = backend.use()

    it('records the entities a chunk mentions once, per workspace', async () => {
      const store = await stores.open({ clock: manualClock().clock })
      const [a, b] = await seedChunks(store, 'w', ['redis and kafka', 'kafka'])
      expect(await store.mentions.add('w', a!.id, new Set(['redis', 'kafka']))).toBe(2)
      expect(await store.mentions.add('w', a!.id, ['kafka'])).toBe(0)
      expect(await store.mentions.add('w', b!.id, [])).toBe(0)
      expect(await store.mentions.add('w', b!.id, ['kafka'])).toBe(1)
      expect(await store.mentions.listAll('w')).toEqual([
        { chunkId: a!.id, entity: 'kafka' },
        { chunkId: a!.id, entity: 'redis' },
        { chunkId: b!.id, entity: 'kafka' },
      ])
      expect(await store.mentions.listAll('other')).toEqual([])
      await expectStoreError(store.mentions.add('w', a!.id, ['']), 'INVALID_INPUT')
    })
  })
}
