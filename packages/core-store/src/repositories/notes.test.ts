import { describe, expect, it } from 'vitest'
import { expectStoreError, manualClock, useTempStores } from '../../test/store-harness'

describe('notes repository', () => {
  const stores = useTempStores()

  it('inserts notes, filters lookups by archive state and peers, and marks access', async () => {
    const { clock, advance } = manualClock()
    const store = stores.open({ clock })
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

  it('refuses notes without an id', async () => {
    const store = stores.open()
    await expectStoreError(
      store.notes.insert('w', { id: '', description: 'd', content: 'c' }),
      'INVALID_INPUT',
    )
  })
})
