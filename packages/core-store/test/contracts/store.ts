import { describe, expect, it } from 'vitest'
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/engine/sqlite/schema/migrations'
import type { StoreLogEvent } from '../../src/store/types'
import type { BackendUnderTest } from '../backends'
import { expectStoreError, manualClock, sequentialIds } from '../store-harness'

/** The store's own surface: info, migrations and the newer-version guard, transactions, fork, close, run lock. */
export function describeStoreSurfaceContract(backend: BackendUnderTest) {
  describe('store', () => {
    const stores = backend.use()

    it('info() reports the backend, the current schema version and the vector path', async () => {
      const store = await stores.open()
      const info = store.info()
      expect(info).toMatchObject({
        backend: store.backend,
        location: store.location,
        schemaVersion: SCHEMA_VERSION,
        vectors: { mode: backend.vectorMode },
      })
      expect(info.version).toMatch(/^\d+\.\d+/)
      expect(info.location).not.toMatch(/:[^@/]*@/)
    })

    it('migrates a new database once; reopening it applies nothing', async () => {
      const events: StoreLogEvent[] = []
      const log = (event: StoreLogEvent) => events.push(event)
      const store = await stores.open({ log })
      await stores.reopen(store, { log })
      const migrated = events.flatMap((event) => (event.kind === 'open' ? [event.migrated] : []))
      expect(migrated).toEqual([MIGRATIONS.map((m) => `${m.version}-${m.name}`), []])
    })

    it('refuses a database written by a newer HyMem, naming both versions', async () => {
      const store = await stores.open()
      await store.workspaces.getOrCreate('w')
      await stores.stampSchemaVersion(store, SCHEMA_VERSION + 1)
      const error = await expectStoreError(stores.reopen(store), 'SCHEMA_TOO_NEW')
      expect(error.message).toContain(`has schema version ${SCHEMA_VERSION + 1}`)
      expect(error.message).toContain(`understands up to version ${SCHEMA_VERSION}: upgrade HyMem`)
    })

    it('commits a transaction across repositories and returns its value, or rolls all of it back', async () => {
      const store = await stores.open()
      await expect(
        store.transaction(async (tx) => {
          await tx.messages.insertBatch('w', 's', [{ peerId: 'user-a', content: 'kept?' }])
          await tx.dreamRuns.recordSkip('w', 'busy')
          await tx.notes.insert('w', { description: 'd', content: 'c', sourceIds: [] })
          expect(await tx.messages.count('w')).toBe(1)
          throw new Error('changed my mind')
        }),
      ).rejects.toThrow('changed my mind')
      expect(await store.messages.count('w')).toBe(0)
      expect(await store.dreamRuns.recent('w')).toEqual([])
      expect(await store.notes.countByState('w')).toMatchObject({ active: 0 })
      expect(await store.workspaces.get('w')).toBeNull()
      const ids = await store.transaction(async (tx) => {
        const [message] = await tx.messages.insertBatch('w', 's', [{ peerId: 'user-a', content: 'kept' }])
        return [message?.id, await tx.dreamRuns.recordSkip('w', 'busy')]
      })
      expect(ids.every((id) => typeof id === 'number')).toBe(true)
      expect(await store.messages.count('w')).toBe(1)
      expect(await store.dreamRuns.recent('w')).toHaveLength(1)
    })

    it('fork() is a second store on the same data, with the same clock and ids; closing it leaves the first open', async () => {
      const { clock } = manualClock()
      const store = await stores.open({ clock, newId: sequentialIds('m') })
      const fork = store.fork()
      try {
        await store.messages.insertBatch('w', 's', [{ peerId: 'u', content: 'from the first' }])
        expect(await fork.messages.count('w')).toBe(1)
        const [written] = await fork.messages.insertBatch('w', 's2', [
          { peerId: 'u', content: 'from the fork' },
        ])
        expect(written).toMatchObject({ publicId: 'm-2', createdAt: '2026-03-01T10:00:00.000Z' })
        expect(fork.backend).toBe(store.backend)
      } finally {
        await fork.close()
      }
      expect(await store.messages.count('w')).toBe(2)
    })

    it('close() keeps what was written, logs once, and may be called twice', async () => {
      const events: StoreLogEvent['kind'][] = []
      const store = await stores.open({ log: (event) => events.push(event.kind) })
      await store.peers.getOrCreate('w', 'alice')
      await store.close()
      await store.close()
      expect(events.filter((kind) => kind === 'close')).toHaveLength(1)
      const again = await stores.reopen(store)
      expect((await again.peers.get('w', 'alice'))?.id).toBe('alice')
    })

    it('after close() every read and write rejects with CLOSED, naming the closed store', async () => {
      const store = await stores.open()
      await store.peers.getOrCreate('w', 'alice')
      const fork = store.fork()
      await store.close()
      const calls: [string, () => Promise<unknown>][] = [
        ['read', () => store.peers.get('w', 'alice')],
        ['count', () => store.workspaces.counts('w')],
        ['write', () => store.peers.getOrCreate('w', 'bob')],
        ['batch write', () => store.messages.insertBatch('w', 's', [{ peerId: 'alice', content: 'late' }])],
        ['transaction', () => store.transaction((tx) => tx.peers.getOrCreate('w', 'carol'))],
        ['full text', () => store.fullText.search('messages', 'late', { workspaceId: 'w', limit: 5 })],
        [
          'vector write',
          () =>
            store.vectors.upsert(
              'chunks',
              [{ id: 1, workspaceId: 'w', vector: new Float32Array([1, 0]), textHash: 'h' }],
              'm',
            ),
        ],
        [
          'vector search',
          () =>
            store.vectors.nearest('chunks', new Float32Array([1, 0]), { workspaceId: 'w', k: 1, model: 'm' }),
        ],
        ['run lock', () => store.runLock.acquire('dream:w', 'late')],
        ['vector read', () => store.vectors.pins()],
        ['run lock', () => store.runLock.inspect('dream:w')],
      ]
      for (const [label, call] of calls) {
        const error = await expectStoreError((async () => call())(), 'CLOSED').catch((e: Error) => {
          throw new Error(`${label}: ${e.message}`)
        })
        expect(error.message, label).toMatch(/closed/)
        expect(error.message, label).toContain(store.location)
      }
      // A fork has its own connection: still open.
      try {
        expect((await fork.peers.get('w', 'alice'))?.id).toBe('alice')
      } finally {
        await fork.close()
      }
    })

    it('runLock: one holder per name, seen from a fork; heartbeat, release, then the next holder', async () => {
      const store = await stores.open()
      const fork = store.fork()
      try {
        expect(await store.runLock.inspect('dream:w')).toBeNull()
        const first = await store.runLock.acquire('dream:w', 'holder-a')
        if (!first.acquired) throw new Error('the first acquire must succeed')
        expect(first.lock).toMatchObject({ name: 'dream:w', holder: 'holder-a', tookOver: null })
        expect(await fork.runLock.acquire('dream:w', 'holder-b')).toMatchObject({
          acquired: false,
          holder: { holder: 'holder-a', name: 'dream:w' },
        })
        expect((await fork.runLock.inspect('dream:w'))?.holder).toBe('holder-a')
        expect((await fork.runLock.acquire('dream:other', 'holder-b')).acquired).toBe(true)
        expect(await first.lock.heartbeat()).toBe(true)
        expect(await first.lock.release()).toBe(true)
        expect(await first.lock.release()).toBe(false)
        expect(await fork.runLock.inspect('dream:w')).toBeNull()
        const second = await fork.runLock.acquire('dream:w', 'holder-b')
        expect(second).toMatchObject({ acquired: true, lock: { holder: 'holder-b', tookOver: null } })
      } finally {
        await fork.close()
      }
    })
  })
}
