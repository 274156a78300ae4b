import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'

/** The peers cases of the store contract, run against every backend. */
export function describePeersContract(backend: BackendUnderTest) {
  describe('peers repository', () => {
    const stores = backend.use()

    it('lists only the peers a filter matches', async () => {
      const store = await stores.open()
      await store.peers.getOrCreate('w', 'a', { metadata: { vip: true } })
      await store.peers.getOrCreate('w', 'b')
      await store.peers.getOrCreate('w', 'c', { metadata: { vip: true } })
      const vip = { op: 'jsonEquals', field: 'metadata', path: ['vip'], value: true } as const
      const page = await store.peers.list('w', { size: 1 }, vip)
      expect(page.items.map((p) => p.id)).toEqual(['a'])
      expect(page).toMatchObject({ total: 2, pages: 2 })
      expect(
        (await store.peers.list('w', {}, { op: 'ne', field: 'id', value: 'a' })).items.map((p) => p.id),
      ).toEqual(['b', 'c'])
    })
  })

  describe('peers repository: listAll', () => {
    const stores = backend.use()

    it('lists every peer of the workspace, by id', async () => {
      const store = await stores.open()
      await store.peers.getOrCreate('w', 'ann')
      await store.peers.getOrCreate('w', 'bob')
      await store.peers.getOrCreate('other', 'carol')
      expect((await store.peers.listAll('w')).map((peer) => peer.id)).toEqual(['ann', 'bob'])
      expect(await store.peers.listAll('empty')).toEqual([])
    })
  })
}
