import { describe, expect, it } from 'vitest'
import { expectStoreError, useTempStores } from '../../test/store-harness'

describe('notes repository', () => {
  const stores = useTempStores()

  it('pages through notes, active first and most recently updated first; archived ones only on request', async () => {
    const store = stores.open()
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
    await store.db
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
