import { describe, expect, it } from 'vitest'
import { builderOf } from '../../src/store/builder'

const vector = (...values: number[]) => new Float32Array(values)

import type { BackendUnderTest } from '../backends'
import { PURGE_T0, seedPurgeMemory } from '../purge-seed'
import { expectStoreError } from '../store-harness'

/** The purges cases of the store contract, run against every backend. */
export function describePurgesContract(backend: BackendUnderTest) {
  describe('purges repository', () => {
    const stores = backend.use()

    it('forgets a session and everything derived from it, and keeps the other session whole', async () => {
      const store = await stores.open({ clock: () => new Date(PURGE_T0) })
      const s = await seedPurgeMemory(store)
      const requested = await store.purges.request('w', { kind: 'session', sessionId: 'trip' })
      expect(requested).toMatchObject({
        kind: 'session',
        target: 'trip',
        messageCount: 2,
        status: 'requested',
      })

      const generation = await store.graphGenerations.current('w')
      const purge = await store.purges.removeRows('w', requested.id)
      expect(purge.status).toBe('rows-removed')
      // Query caches in every process are told, in the same transaction.
      expect(await store.graphGenerations.current('w')).toBe(generation + 1)
      expect(purge.removed).toEqual({
        chunks: 1,
        derivedFacts: 1,
        episodes: 1,
        evidence: 3,
        facts: 2,
        factsRecomputed: 1,
        factsReopened: 1,
        feedback: 1,
        entityTypes: 1,
        llmCache: 1,
        markers: 1,
        mentions: 1,
        messages: 2,
        notes: 3,
        procedures: 1,
        profileEntries: 1,
        searchLog: 1,
        sessions: 1,
        summariesCleared: 1,
        vectors: 4,
      })
      expect((await store.messages.listBySession('w', 'trip')).total).toBe(0)
      expect((await store.messages.listBySession('w', 'work')).total).toBe(2)
      expect((await store.chunks.listAll('w')).map((c) => c.id)).toEqual([s.workChunk.id])
      const edges = await store.edges.listAll('w')
      expect(edges.map((e) => `${e.subject} ${e.predicate} ${e.object}`).sort()).toEqual([
        'ann deploys_to heroku',
        'ann uses postgres',
        'billing uses postgres',
      ])
      const reopened = edges.find((e) => e.object === 'heroku')!
      expect(reopened).toMatchObject({ status: 'active', validTo: null, supersededBy: null })
      const both = edges.find((e) => e.subject === 'ann' && e.object === 'postgres')!
      expect(both).toMatchObject({ posEvidence: 1, negEvidence: 0, validFrom: '2026-01-20T00:00:00.000Z' })
      expect(both.confidence).toBeCloseTo(2 / 3)
      expect((await store.markers.profileEntries('w', { order: 'by-key' })).map((e) => e.statement)).toEqual([
        'Ann prefers short answers.',
      ])
      expect((await store.episodes.listAll('w')).map((e) => e.id)).toEqual(['ep-work'])
      expect(
        await store.fullText.search('procedures', 'quetzalcoatl', { workspaceId: 'w', limit: 5 }),
      ).toEqual([])
      expect(await store.fullText.search('messages', 'zanzibar', { workspaceId: 'w', limit: 5 })).toEqual([])
      expect(await store.fullText.search('chunks', 'zanzibar', { workspaceId: 'w', limit: 5 })).toEqual([])
      const notes = await store.notes.getByIds('w', [s.keptNote.id, s.derived.id])
      expect(notes.map((n) => n.id)).toEqual([s.keptNote.id])
      const session = await store.sessions.get('w', 'trip')
      expect(session).toMatchObject({ isActive: false, summary: null, metadata: {} })
      expect((await store.sessions.get('w', 'work'))?.summary).toBe('Billing runs on Postgres.')
      expect((await store.searchLog.list('w')).map((q) => q.query)).toEqual(['which database for billing?'])
      expect(await store.vectors.textHashes('chunks', 'w', [s.tripChunk.id, s.workChunk.id])).toEqual(
        new Map([[s.workChunk.id, 'b']]),
      )
      expect(
        await store.vectors.cachedTextVectors('fake', ['ann visited zanzibar', 'billing uses postgres']),
      ).toEqual(new Map([['billing uses postgres', vector(0, 1, 0)]]))
      expect(await store.entityTypes.typesOf('w', ['zanzibar', 'postgres'])).toEqual(
        new Map([['postgres', 'database']]),
      )
      const cache = await builderOf(store).selectFrom('llm_cache').select('key').execute()
      expect(cache.map((r) => r.key)).toEqual(['before'])

      const compaction = await store.purges.compact('w', purge.id)
      // What compaction rewrites is the engine's: SQLite's full-text indexes and WAL, PostgreSQL's VACUUM.
      expect(compaction.checkpointed).toBe(true)
      expect(compaction.optimized.length).toBeGreaterThan(0)
      expect(compaction.purge).toMatchObject({ status: 'done', finishedAt: PURGE_T0 })
    })

    it('is idempotent: another pass removes nothing more, and a done purge is left alone', async () => {
      const store = await stores.open({ clock: () => new Date(PURGE_T0) })
      await seedPurgeMemory(store)
      const { id } = await store.purges.request('w', { kind: 'session', sessionId: 'trip' })
      const first = await store.purges.removeRows('w', id)
      const again = await store.purges.removeRows('w', id)
      expect(again.removed).toEqual(first.removed)
      expect(again.rowsRemovedAt).toBe(first.rowsRemovedAt)
      await store.purges.compact('w', id)
      expect((await store.purges.removeRows('w', id)).status).toBe('done')
      expect((await store.purges.compact('w', id)).optimized).toEqual([])
    })

    it('forgets single messages: their chunk goes whole, the session summary is cleared for a rebuild', async () => {
      const store = await stores.open({ clock: () => new Date(PURGE_T0) })
      const s = await seedPurgeMemory(store)
      const { id } = await store.purges.request('w', { kind: 'messages', messageIds: [s.trip1.id, 999_999] })
      const purge = await store.purges.removeRows('w', id)
      expect(purge.messageCount).toBe(1)
      expect(purge.removed).toMatchObject({ messages: 1, chunks: 1, summariesCleared: 1 })
      expect((await store.messages.listBySession('w', 'trip')).items.map((m) => m.content)).toEqual([
        'Zanzibar sounds lovely.',
      ])
      expect(await store.sessions.get('w', 'trip')).toMatchObject({ isActive: true, summary: null })
    })

    it("forgets a peer's messages across sessions", async () => {
      const store = await stores.open({ clock: () => new Date(PURGE_T0) })
      await seedPurgeMemory(store)
      const { id } = await store.purges.request('w', { kind: 'peer-messages', peerId: 'ann' })
      const purge = await store.purges.removeRows('w', id)
      expect(purge).toMatchObject({ kind: 'peer-messages', target: 'ann', messageCount: 3 })
      const left = [
        ...(await store.messages.listBySession('w', 'trip')).items,
        ...(await store.messages.listBySession('w', 'work')).items,
      ]
      expect(left.map((m) => m.peerId)).toEqual(['bot'])
      expect(await store.chunks.listAll('w')).toEqual([])
    })

    it('forgets one fact: its evidence and vector go, the facts it superseded come back, messages stay', async () => {
      const store = await stores.open({ clock: () => new Date(PURGE_T0) })
      const s = await seedPurgeMemory(store)
      const { id } = await store.purges.request('w', { kind: 'fact', edgeId: s.airline.id })
      const purge = await store.purges.removeRows('w', id)
      expect(purge.removed).toMatchObject({ facts: 1, evidence: 1, factsReopened: 1, llmCache: 1 })
      expect(await store.edges.getByIds('w', [s.airline.id])).toEqual([])
      expect((await store.edges.getByIds('w', [s.older.id]))[0]).toMatchObject({
        status: 'active',
        validTo: null,
      })
      expect((await store.messages.listBySession('w', 'trip')).total).toBe(2)
    })

    it('forgets a note and the notes derived from it', async () => {
      const store = await stores.open({ clock: () => new Date(PURGE_T0) })
      const s = await seedPurgeMemory(store)
      const cited = (await store.notes.getByIds('w', [s.derived.id]))[0]!
      const source = String(cited.sourceIds[0])
      const { id } = await store.purges.request('w', { kind: 'note', noteId: source })
      expect((await store.purges.removeRows('w', id)).removed).toMatchObject({ notes: 2 })
      expect(await store.notes.getByIds('w', [s.derived.id, source])).toEqual([])
    })

    it('forgets a workspace, keeps its receipts, and leaves other workspaces alone', async () => {
      const store = await stores.open({ clock: () => new Date(PURGE_T0) })
      await seedPurgeMemory(store)
      await store.messages.insertBatch('other', 's', [{ peerId: 'x', content: 'Zanzibar is elsewhere too.' }])
      const { id } = await store.purges.request('w', { kind: 'workspace' })
      const purge = await store.purges.removeRows('w', id)
      expect(purge.removed).toMatchObject({ messages: 4, chunks: 2, sessions: 2, facts: 6, notes: 4 })
      expect(await store.workspaces.get('w')).toBeNull()
      expect(await store.messages.count('other')).toBe(1)
      await store.purges.compact('w', id)
      expect((await store.purges.recent('w')).map((p) => [p.kind, p.status])).toEqual([['workspace', 'done']])
    })

    it('lists unfinished purges and refuses bad targets and out-of-order steps', async () => {
      const store = await stores.open({ clock: () => new Date(PURGE_T0) })
      const requested = await store.purges.request('w', { kind: 'note', noteId: 'n1' })
      const { id } = requested
      expect(await store.purges.get('w', id)).toEqual(requested)
      expect(await store.purges.get('w', id + 1000)).toBeNull()
      expect(await store.purges.get('elsewhere', id)).toBeNull()
      await expectStoreError(store.purges.removeRows('elsewhere', id), 'NOT_FOUND')
      expect(await store.purges.get('w', id)).toEqual(requested)
      expect((await store.purges.unfinished()).map((p) => p.id)).toEqual([id])
      expect((await store.purges.unfinished('elsewhere')).length).toBe(0)
      await expectStoreError(store.purges.compact('w', id), 'INVALID_INPUT')
      await expectStoreError(store.purges.removeRows('w', 12345), 'NOT_FOUND')
      await expectStoreError(store.purges.request('w', { kind: 'fact', edgeId: -1 }), 'INVALID_INPUT')
      await expectStoreError(store.purges.request('w', { kind: 'session', sessionId: '' }), 'INVALID_INPUT')
      await expectStoreError(store.purges.request('w', { kind: 'bogus' } as never), 'INVALID_INPUT')
    })
  })
}
