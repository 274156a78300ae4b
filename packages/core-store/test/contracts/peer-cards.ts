import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'
import { expectStoreError } from '../store-harness'

/** The peer cards cases of the store contract, run against every backend. */
export function describePeerCardsContract(backend: BackendUnderTest) {
  describe('peer cards repository', () => {
    const stores = backend.use()

    it('stores a card per observer and observed peer, replacing it and creating both peers', async () => {
      const store = await stores.open()
      expect(await store.peerCards.get('w', 'alice', 'bob')).toBeNull()
      await store.peerCards.set('w', 'alice', 'bob', ['NAME: Bob'])
      await store.peerCards.set('w', 'alice', 'bob', ['NAME: Bob', 'LIKES: tea'])
      await store.peerCards.set('w', 'bob', 'bob', [])
      expect(await store.peerCards.get('w', 'alice', 'bob')).toEqual(['NAME: Bob', 'LIKES: tea'])
      expect(await store.peerCards.get('w', 'bob', 'bob')).toEqual([])
      expect(await store.peerCards.get('w', 'bob', 'alice')).toBeNull()
      expect((await store.peers.get('w', 'alice'))?.id).toBe('alice')
      expect((await store.peers.get('w', 'bob'))?.id).toBe('bob')
      await expectStoreError(store.peerCards.set('w', 'a', 'b', [1 as unknown as string]), 'INVALID_INPUT')
    })
  })
}
