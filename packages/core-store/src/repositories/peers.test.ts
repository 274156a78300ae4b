import { describe, expect, it } from 'vitest'
import { expectStoreError, manualClock, useTempStores } from '../../test/store-harness'
import type { PeerRole } from '../schema/tables'

describe('peers repository', () => {
  const stores = useTempStores()

  it('getOrCreate infers the role from the id, keeps an explicit one, and creates the workspace', async () => {
    const { clock } = manualClock()
    const store = stores.open({ clock })
    const bot = await store.peers.getOrCreate('w', 'hermes')
    expect(bot).toEqual({
      created: true,
      value: {
        workspaceId: 'w',
        id: 'hermes',
        role: 'assistant',
        metadata: {},
        configuration: {},
        createdAt: '2026-03-01T10:00:00.000Z',
      },
    })
    const explicit = await store.peers.getOrCreate('w', 'hermes-relay', { role: 'user', metadata: { n: 1 } })
    expect(explicit.value).toMatchObject({ role: 'user', metadata: { n: 1 } })
    expect((await store.peers.getOrCreate('w', 'hermes', { role: 'user' })).created).toBe(false)
    expect((await store.peers.get('w', 'hermes'))?.role).toBe('assistant')
    expect((await store.workspaces.get('w'))?.id).toBe('w')
    expect(await store.peers.get('w', 'nobody')).toBeNull()
  })

  it('update replaces metadata and configuration wholesale and creates missing peers', async () => {
    const store = stores.open()
    await store.peers.getOrCreate('w', 'p', { metadata: { a: 1 }, configuration: { x: 1, y: 2 } })
    const updated = await store.peers.update('w', 'p', { configuration: { z: 3 } })
    expect(updated).toMatchObject({ metadata: { a: 1 }, configuration: { z: 3 } })
    const created = await store.peers.update('w', 'new-peer', { metadata: { m: true } })
    expect(created).toMatchObject({ id: 'new-peer', role: 'user', metadata: { m: true } })
  })

  it('lists per workspace with pagination', async () => {
    const { clock, advance } = manualClock()
    const store = stores.open({ clock })
    for (const id of ['a', 'b', 'c']) {
      await store.peers.getOrCreate('w', id)
      advance(5)
    }
    await store.peers.getOrCreate('other', 'z')
    const page = await store.peers.list('w', { size: 2 })
    expect(page.items.map((p) => p.id)).toEqual(['a', 'b'])
    expect(page).toMatchObject({ total: 3, page: 1, size: 2, pages: 2 })
    expect((await store.peers.list('w', { reverse: true })).items.map((p) => p.id)).toEqual(['c', 'b', 'a'])
  })

  it('refuses empty ids, unknown roles and non-object metadata', async () => {
    const store = stores.open()
    await expectStoreError(store.peers.getOrCreate('', 'p'), 'INVALID_INPUT')
    await expectStoreError(store.peers.getOrCreate('w', ''), 'INVALID_INPUT')
    await expectStoreError(store.peers.getOrCreate('w', 'p', { role: 'robot' as PeerRole }), 'INVALID_INPUT')
    await expectStoreError(
      store.peers.update('w', 'p', { metadata: null as unknown as Record<string, unknown> }),
      'INVALID_INPUT',
    )
    expect(await store.workspaces.get('w')).toBeNull()
  })

  it('lists only the peers a filter matches', async () => {
    const store = stores.open()
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
  const stores = useTempStores()

  it('lists every peer of the workspace, by id', async () => {
    const store = stores.open()
    await store.peers.getOrCreate('w', 'ann')
    await store.peers.getOrCreate('w', 'bob')
    await store.peers.getOrCreate('other', 'carol')
    expect((await store.peers.listAll('w')).map((peer) => peer.id)).toEqual(['ann', 'bob'])
    expect(await store.peers.listAll('empty')).toEqual([])
  })
})
