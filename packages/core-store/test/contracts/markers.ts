import { describe, expect, it } from 'vitest'
import { builderOf } from '../../src/store/builder'
import type { BackendUnderTest } from '../backends'
import { minute, seedChunks } from '../graph-seed'
import { expectStoreError, manualClock } from '../store-harness'

/** The markers cases of the store contract, run against every backend. */
export function describeMarkersContract(backend: BackendUnderTest) {
  describe('markers repository: profile entries', () => {
    const stores = backend.use()

    it('stores an imported entry once per peer, kind and key, and lists them in that order', async () => {
      const store = await stores.open()
      await store.workspaces.getOrCreate('w')
      const entry = {
        workspaceId: 'w',
        peerId: 'user',
        kind: 'preference',
        statement: 'Prefers pnpm.',
        statementKey: 'prefers pnpm',
        posEvidence: 2,
        negEvidence: 0,
        firstSeen: '2026-01-01T00:00:00.000Z',
        lastSeen: '2026-01-02T00:00:00.000Z',
      }
      expect(await store.markers.insertProfileEntryIfAbsent(entry)).toBe(true)
      expect(await store.markers.insertProfileEntryIfAbsent({ ...entry, posEvidence: 5 })).toBe(false)
      await store.markers.insertProfileEntryIfAbsent({
        ...entry,
        kind: 'correction',
        statementKey: 'no tabs',
      })
      await store.markers.insertProfileEntryIfAbsent({ ...entry, peerId: 'agent' })
      await store.markers.insertProfileEntryIfAbsent({ ...entry, workspaceId: 'x' })
      const listed = await store.markers.profileEntries('w', { order: 'by-key' })
      expect(listed.map((e) => [e.peerId, e.kind, e.statementKey])).toEqual([
        ['agent', 'preference', 'prefers pnpm'],
        ['user', 'correction', 'no tabs'],
        ['user', 'preference', 'prefers pnpm'],
      ])
      expect(listed[2]).toEqual({ ...entry, id: expect.any(Number) })
      await expectStoreError(
        store.markers.insertProfileEntryIfAbsent({ ...entry, workspaceId: '' }),
        'INVALID_INPUT',
      )
    })
  })

  describe('markers repository: behavioural markers and profile entries', () => {
    const stores = backend.use()

    it('adds a chunk’s marker once, lists the unconsolidated ones oldest first and marks them', async () => {
      const store = await stores.open({ clock: manualClock().clock })
      const [chunk] = await seedChunks(store, 'w', ['I prefer tabs'])
      const marker = {
        peerId: 'alice',
        chunkId: chunk!.id,
        kind: 'preference' as const,
        statement: 'User prefers tabs.',
        observedAt: minute(5),
      }
      expect(await store.markers.add('w', marker)).toBe(true)
      expect(await store.markers.add('w', marker)).toBe(false)
      expect(
        await store.markers.add('w', { ...marker, chunkId: null, peerId: null, observedAt: minute(1) }),
      ).toBe(true)
      const pending = await store.markers.listUnconsolidated('w')
      expect(pending.map((m) => [m.peerId, m.chunkId, m.observedAt])).toEqual([
        [null, null, minute(1)],
        ['alice', chunk!.id, minute(5)],
      ])
      await store.markers.markConsolidated('w', pending.map((m) => m.id).slice(0, 1))
      expect((await store.markers.listUnconsolidated('w')).map((m) => m.observedAt)).toEqual([minute(5)])
      expect((await store.markers.listAll('w')).map((m) => [m.chunkId, m.consolidated])).toEqual([
        [chunk!.id, false],
        [null, true],
      ])
      await expectStoreError(store.markers.add('w', { ...marker, kind: 'mood' as never }), 'INVALID_INPUT')
    })

    it('folds observations into profile entries and reads them strongest first', async () => {
      const store = await stores.open({ clock: manualClock().clock })
      const observe = (peerId: string | null, statement: string, at: number) =>
        store.markers.observeProfileEntry('w', {
          peerId,
          kind: 'preference',
          statement,
          statementKey: statement.toLowerCase().replace(/[^a-z ]/g, ''),
          observedAt: minute(at),
        })
      await observe('alice', 'Prefers vim', 1)
      await observe(null, 'Likes tea', 2)
      const again = await observe('alice', 'prefers VIM!', 5)
      expect(again).toMatchObject({
        workspaceId: 'w',
        peerId: 'alice',
        statement: 'Prefers vim',
        statementKey: 'prefers vim',
        posEvidence: 2,
        negEvidence: 0,
        firstSeen: minute(1),
        lastSeen: minute(5),
      })
      expect((await observe('alice', 'prefers vim', 3)).lastSeen).toBe(minute(5))
      await observe('bob', 'Prefers emacs', 0)
      const entries = await store.markers.profileEntries('w')
      expect(entries.map((e) => [e.peerId, e.statement, e.posEvidence])).toEqual([
        ['alice', 'Prefers vim', 3],
        ['bob', 'Prefers emacs', 1],
        ['', 'Likes tea', 1],
      ])
      expect((await store.markers.profileEntries('w', { peerId: 'bob' })).map((e) => e.statement)).toEqual([
        'Prefers emacs',
      ])
      expect(await store.markers.deleteProfileEntries('w', [entries[1]!.id])).toBe(1)
      expect(await store.markers.profileEntries('w', { peerId: 'bob' })).toEqual([])
      await expectStoreError(store.markers.profileEntries('w', { peerId: '' }), 'INVALID_INPUT')
    })

    it("lists a peer's supported entries best supported first, ties freshest or first seen first", async () => {
      const store = await stores.open()
      const entry = (peer: string, statement: string, pos: number, neg: number, lastSeen: string) =>
        builderOf(store)
          .insertInto('profile_entries')
          .values({
            workspace_id: 'w',
            peer_id: peer,
            kind: 'preference',
            statement,
            statement_key: statement,
            pos_evidence: pos,
            neg_evidence: neg,
            first_seen: '2026-01-01T00:00:00.000Z',
            last_seen: lastSeen,
          })
          .execute()
      await entry('alice', 'likes tea', 2, 0, '2026-01-03T00:00:00.000Z')
      await entry('alice', 'likes coffee', 2, 0, '2026-01-02T00:00:00.000Z')
      await entry('alice', 'likes jazz', 5, 1, '2026-01-01T00:00:00.000Z')
      await entry('alice', 'likes rain', 1, 1, '2026-01-05T00:00:00.000Z')
      await entry('bob', 'likes chess', 3, 0, '2026-01-01T00:00:00.000Z')
      const supported = { peerId: 'alice', supportedOnly: true, ties: 'last-seen', limit: 10 } as const
      const entries = await store.markers.profileEntries('w', supported)
      expect(entries.map((e) => e.statement)).toEqual(['likes jazz', 'likes tea', 'likes coffee'])
      expect(entries[0]).toEqual({
        id: expect.any(Number),
        workspaceId: 'w',
        peerId: 'alice',
        kind: 'preference',
        statement: 'likes jazz',
        statementKey: 'likes jazz',
        posEvidence: 5,
        negEvidence: 1,
        firstSeen: '2026-01-01T00:00:00.000Z',
        lastSeen: '2026-01-01T00:00:00.000Z',
      })
      expect(await store.markers.profileEntries('w', { ...supported, limit: 1 })).toHaveLength(1)
      expect(await store.markers.profileEntries('w', { ...supported, peerId: 'nobody' })).toEqual([])
      const stableTies = await store.markers.profileEntries('w', { peerId: 'alice' })
      expect(stableTies.map((e) => e.statement)).toEqual([
        'likes jazz',
        'likes coffee',
        'likes tea',
        'likes rain',
      ])
      await expectStoreError(store.markers.profileEntries('w', { limit: 0 }), 'INVALID_INPUT')
      await expectStoreError(store.markers.profileEntries('w', { ties: 'newest' as never }), 'INVALID_INPUT')
    })
  })
}
