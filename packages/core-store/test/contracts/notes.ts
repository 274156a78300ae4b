import { describe, expect, it } from 'vitest'
import type { NewNote, Note } from '../../src/repositories/notes'
import { builderOf } from '../../src/store/builder'
import type { BackendUnderTest } from '../backends'
import { expectStoreError, manualClock, sequentialIds } from '../store-harness'

const DAY = 86_400_000

function draft(fields: Partial<NewNote> = {}): NewNote {
  return {
    description: 'Deploy day',
    content: 'Deploys happen on Fridays.',
    importance: 1,
    observerId: null,
    observedId: null,
    sessionId: null,
    level: 'explicit',
    sourceIds: [],
    metadata: {},
    ...fields,
  }
}

/** The notes cases of the store contract, run against every backend. */
export function describeNotesContract(backend: BackendUnderTest) {
  describe('notes repository', () => {
    const stores = backend.use()

    async function open() {
      const { clock, advance } = manualClock()
      const store = await stores.open({ clock, newId: sequentialIds('note') })
      return { store, advance }
    }

    it('inserts a note with its id and times, and reads it back by workspace', async () => {
      const { store } = await open()
      await store.workspaces.getOrCreate('w')
      const note = await store.notes.insert(
        'w',
        draft({ observedId: 'user', sourceIds: ['m1'], metadata: { tag: 'ops' } }),
      )
      expect(note).toEqual({
        id: 'note-1',
        workspaceId: 'w',
        description: 'Deploy day',
        content: 'Deploys happen on Fridays.',
        importance: 1,
        observerId: null,
        observedId: 'user',
        sessionId: null,
        level: 'explicit',
        sourceIds: ['m1'],
        timesDerived: 1,
        metadata: { tag: 'ops' },
        createdAt: '2026-03-01T10:00:00.000Z',
        updatedAt: '2026-03-01T10:00:00.000Z',
        lastAccessedAt: '2026-03-01T10:00:00.000Z',
        archivedAt: null,
      })
      expect(await store.notes.get('w', 'note-1')).toEqual(note)
      expect(await store.notes.get('other', 'note-1')).toBeNull()
      expect(await store.notes.getByIds('w', ['note-1', 'missing'])).toEqual([note])
    })

    it('restates a note: new values, one more derivation, update and access times moved', async () => {
      const { store, advance } = await open()
      await store.workspaces.getOrCreate('w')
      await store.notes.insert('w', draft())
      advance(DAY)
      const restated = await store.notes.restate('w', 'note-1', {
        description: 'Deploy day',
        content: 'Deploys happen on Fridays at noon.',
        importance: 4,
        sourceIds: ['m1', 'm2'],
        metadata: { a: 1 },
      })
      expect(restated).toMatchObject({
        content: 'Deploys happen on Fridays at noon.',
        importance: 4,
        sourceIds: ['m1', 'm2'],
        metadata: { a: 1 },
        timesDerived: 2,
        createdAt: '2026-03-01T10:00:00.000Z',
        updatedAt: '2026-03-02T10:00:00.000Z',
        lastAccessedAt: '2026-03-02T10:00:00.000Z',
      })
      await expectStoreError(store.notes.restate('other', 'note-1', { ...restated }), 'NOT_FOUND')
    })

    it('lists the active notes of one observer/observed pair, newest update first, null matching null', async () => {
      const { store, advance } = await open()
      await store.workspaces.getOrCreate('w')
      await store.notes.insert('w', draft({ content: 'a' }))
      advance(1000)
      await store.notes.insert('w', draft({ content: 'b' }))
      await store.notes.insert('w', draft({ content: 'c', observedId: 'user' }))
      await store.notes.archive('w', 'note-1')
      const pair = { observerId: null, observedId: null }
      expect((await store.notes.activeForPair('w', pair)).map((n) => n.content)).toEqual(['b'])
      const aboutUser = await store.notes.activeForPair('w', { observerId: null, observedId: 'user' })
      expect(aboutUser.map((n) => n.content)).toEqual(['c'])
      expect(await store.notes.activeForPair('w', pair, ['note-3'])).toEqual([])
      expect(await store.notes.activeForPair('w', pair, [])).toEqual([])
    })

    it('archives one note, sweeps stale unimportant ones, and restores', async () => {
      const { store, advance } = await open()
      await store.workspaces.getOrCreate('w')
      await store.notes.insert('w', draft({ content: 'old and minor' }))
      await store.notes.insert('w', draft({ content: 'old but important', importance: 5 }))
      advance(100 * DAY)
      await store.notes.insert('w', draft({ content: 'fresh' }))
      const filter = { accessedBefore: '2026-04-01T00:00:00.000Z', maxImportance: 1 }

      const found = await store.notes.findStale('w', filter, 10)
      expect(found.total).toBe(1)
      expect(found.notes.map((n) => n.content)).toEqual(['old and minor'])
      expect(await store.notes.findStale('other', filter, 10)).toEqual({ total: 0, notes: [] })

      const swept = await store.notes.archiveStale('w', filter)
      expect(swept).toEqual({ archived: 1, at: '2026-06-09T10:00:00.000Z' })
      expect(await store.notes.get('w', 'note-1')).toBeNull()
      expect(await store.notes.get('w', 'note-1', { includeArchived: true })).toMatchObject({
        archivedAt: '2026-06-09T10:00:00.000Z',
      })

      expect((await store.notes.archive('w', 'note-3'))?.archivedAt).toBe('2026-06-09T10:00:00.000Z')
      expect(await store.notes.archive('w', 'note-3')).toBeNull()
      expect(await store.notes.countByState('w')).toEqual({ active: 1, archived: 2 })

      advance(DAY)
      const restored = await store.notes.restore('w', 'note-1')
      expect(restored).toMatchObject({ archivedAt: null, lastAccessedAt: '2026-06-10T10:00:00.000Z' })
      expect(await store.notes.restore('other', 'note-1')).toBeNull()
      await expectStoreError(store.notes.findStale('w', filter, 0), 'INVALID_INPUT')
      await expectStoreError(
        store.notes.archiveStale('w', { accessedBefore: 'last spring', maxImportance: 1 }),
        'INVALID_INPUT',
      )
    })

    it('marks last access, deletes, and pages through every note of a workspace by id', async () => {
      const { store, advance } = await open()
      await store.workspaces.getOrCreate('w')
      for (let i = 0; i < 3; i++) await store.notes.insert('w', draft({ content: `n${i}` }))
      advance(DAY)
      await store.notes.markAccessed('w', ['note-2'])
      await store.notes.markAccessed('other', ['note-3'])
      expect((await store.notes.get('w', 'note-2'))?.lastAccessedAt).toBe('2026-03-02T10:00:00.000Z')
      expect((await store.notes.get('w', 'note-3'))?.lastAccessedAt).toBe('2026-03-01T10:00:00.000Z')
      expect(await store.notes.delete('other', 'note-1')).toBe(false)
      expect(await store.notes.delete('w', 'note-1')).toBe(true)
      const ids: string[] = []
      for await (const note of store.notes.iterate('w')) ids.push(note.id)
      expect(ids).toEqual(['note-2', 'note-3'])
    })

    it('pages through more notes than fit one page', async () => {
      const { store } = await open()
      await store.workspaces.getOrCreate('w')
      await store.transaction(async (tx) => {
        for (let i = 0; i < 1_001; i++) await tx.notes.insert('w', draft({ content: `n${i}` }))
      })
      let count = 0
      for await (const _ of store.notes.iterate('w')) count++
      expect(count).toBe(1_001)
    })

    it('stores an imported note exactly once, keeping its id and times', async () => {
      const { store } = await open()
      await store.workspaces.getOrCreate('w')
      const imported: Note = {
        id: 'from-dump',
        workspaceId: 'w',
        description: 'Old',
        content: 'We used Jenkins.',
        importance: 2,
        observerId: 'agent',
        observedId: 'user',
        sessionId: 's1',
        level: 'explicit',
        sourceIds: ['x'],
        timesDerived: 3,
        metadata: { k: 'v' },
        createdAt: '2025-01-01T00:00:00.000Z',
        updatedAt: '2025-01-02T00:00:00.000Z',
        lastAccessedAt: '2025-01-03T00:00:00.000Z',
        archivedAt: '2025-01-04T00:00:00.000Z',
      }
      expect(await store.notes.insertIfAbsent(imported)).toBe(true)
      expect(await store.notes.insertIfAbsent({ ...imported, content: 'changed' })).toBe(false)
      expect(await store.notes.get('w', 'from-dump', { includeArchived: true })).toEqual(imported)
    })

    it('refuses bad input before writing', async () => {
      const { store } = await open()
      await store.workspaces.getOrCreate('w')
      await expectStoreError(store.notes.insert('', draft()), 'INVALID_INPUT')
      await expectStoreError(store.notes.insert('w', draft({ importance: Number.NaN })), 'INVALID_INPUT')
      await expectStoreError(store.notes.insert('w', draft({ sourceIds: [1.5] })), 'INVALID_INPUT')
      await expectStoreError(store.notes.insert('w', draft({ id: '' })), 'INVALID_INPUT')
      await expectStoreError(store.notes.insert('w', draft({ createdAt: 'yesterday' })), 'INVALID_INPUT')
      await expectStoreError(store.notes.markAccessed('w', ['x'], 'now'), 'INVALID_INPUT')
      expect(await store.notes.countByState('w')).toEqual({ active: 0, archived: 0 })
    })

    it('inserts notes, filters lookups by archive state and peers, and marks access', async () => {
      const { clock, advance } = manualClock()
      const store = await stores.open({ clock })
      const runbook = await store.notes.insert('w', {
        id: 'runbook',
        description: 'deploy runbook',
        content: 'blue green',
        importance: 3,
        sourceIds: [4, 'note-0'],
        metadata: { tag: 'ops' },
      })
      expect(runbook).toMatchObject({
        workspaceId: 'w',
        importance: 3,
        observerId: null,
        observedId: null,
        level: 'explicit',
        sourceIds: [4, 'note-0'],
        metadata: { tag: 'ops' },
        lastAccessedAt: '2026-03-01T10:00:00.000Z',
        archivedAt: null,
      })
      await store.notes.insert('w', { id: 'aboutBob', description: 'bob', content: 'x', observedId: 'bob' })
      await store.notes.insert('w', {
        id: 'byAnn',
        description: 'ann',
        content: 'x',
        observerId: 'ann',
        observedId: 'ann',
      })
      await store.notes.insert('w', {
        id: 'old',
        description: 'old',
        content: 'x',
        archivedAt: '2026-02-01T00:00:00.000Z',
      })
      const ids = ['runbook', 'aboutBob', 'byAnn', 'old', 'missing']
      const found = async (filter?: Parameters<typeof store.notes.getByIds>[2]) =>
        (await store.notes.getByIds('w', ids, filter)).map((note) => note.id).sort()
      expect(await found()).toEqual(['aboutBob', 'byAnn', 'runbook'])
      expect(await found({ includeArchived: true })).toEqual(['aboutBob', 'byAnn', 'old', 'runbook'])
      expect(await found({ aboutPeerOrNobody: 'bob' })).toEqual(['aboutBob', 'runbook'])
      expect(await found({ observedId: 'ann' })).toEqual(['byAnn'])
      expect(await found({ observerId: 'ann' })).toEqual(['byAnn'])
      expect(await store.notes.getByIds('other', ids)).toEqual([])

      advance(60_000)
      await store.notes.markAccessed('w', ['runbook'])
      expect((await store.notes.get('w', 'runbook'))?.lastAccessedAt).toBe('2026-03-01T10:01:00.000Z')
      expect((await store.notes.get('w', 'aboutBob'))?.lastAccessedAt).toBe('2026-03-01T10:00:00.000Z')
      await store.notes.markAccessed('other', ['aboutBob'], '2030-01-01T00:00:00.000Z')
      expect((await store.notes.get('w', 'aboutBob'))?.lastAccessedAt).toBe('2026-03-01T10:00:00.000Z')
      expect(await store.notes.get('w', 'missing')).toBeNull()
    })

    it('lists active or archived notes a page at a time, most recently updated first', async () => {
      const { store, advance } = await open()
      const ids: string[] = []
      for (const description of ['one', 'two', 'three']) {
        ids.push((await store.notes.insert('w', draft({ description }))).id)
        advance(1000)
      }
      await store.notes.archive('w', ids[1]!)
      const active = await store.notes.list('w', { page: { size: 1 } })
      expect(active).toMatchObject({ total: 2, pages: 2, page: 1 })
      expect(active.items.map((n) => n.description)).toEqual(['three'])
      expect(
        (await store.notes.list('w', { page: { reverse: true } })).items.map((n) => n.description),
      ).toEqual(['one', 'three'])
      expect((await store.notes.list('w', { archived: true })).items.map((n) => n.description)).toEqual([
        'two',
      ])
      expect((await store.notes.list('other')).total).toBe(0)
      await expectStoreError(store.notes.list('w', { page: { page: 0 } }), 'INVALID_INPUT')
    })
  })

  describe('notes repository: pages', () => {
    const stores = backend.use()

    it('pages through notes, active first and most recently updated first; archived ones only on request', async () => {
      const store = await stores.open()
      const note = (id: string, updatedAt: string, archivedAt: string | null = null) => ({
        id,
        workspace_id: 'w',
        description: `note ${id}`,
        content: `content ${id}`,
        source_ids: '["m1"]',
        created_at: updatedAt,
        updated_at: updatedAt,
        last_accessed_at: updatedAt,
        archived_at: archivedAt,
      })
      await builderOf(store)
        .insertInto('notes')
        .values([
          note('old', '2026-01-01T00:00:00.000Z'),
          note('new', '2026-02-01T00:00:00.000Z'),
          note('gone', '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'),
          { ...note('elsewhere', '2026-01-01T00:00:00.000Z'), workspace_id: 'other' },
        ])
        .execute()
      const active = await store.notes.list('w')
      expect(active.items.map((n) => n.id)).toEqual(['new', 'old'])
      expect(active.total).toBe(2)
      const all = await store.notes.list('w', { includeArchived: true, page: { size: 2, page: 2 } })
      expect(all.items.map((n) => [n.id, n.archivedAt, n.sourceIds])).toEqual([
        ['gone', '2026-03-02T00:00:00.000Z', ['m1']],
      ])
      expect([all.total, all.pages]).toEqual([3, 2])
      await expectStoreError(store.notes.list('w', { page: { size: 0 } }), 'INVALID_INPUT')
    })
  })
}
