import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PURGE_T0, seedPurgeMemory } from '../../test/purge-seed'
import { useTempStores } from '../../test/store-harness'

function fileWords(path: string): string {
  const parts = [path, `${path}-wal`].map((file) => {
    try {
      return readFileSync(file).toString('latin1').toLowerCase()
    } catch {
      return ''
    }
  })
  return parts.join('\n')
}

describe('purges on SQLite', () => {
  const stores = useTempStores()

  it('compaction optimizes every full-text index and checkpoints the WAL: the forgotten words leave the file', async () => {
    const store = stores.open({ clock: () => new Date(PURGE_T0) })
    await seedPurgeMemory(store)
    const { id } = await store.purges.request('w', { kind: 'session', sessionId: 'trip' })
    await store.purges.removeRows('w', id)
    const compaction = await store.purges.compact('w', id)
    expect(compaction.optimized).toEqual([
      'messages_fts',
      'chunks_fts',
      'episodes_fts',
      'procedures_fts',
      'notes_fts',
    ])
    const bytes = fileWords(stores.file('hymem.sqlite'))
    expect(bytes).not.toContain('zanzib')
    expect(bytes).not.toContain('quetzal')
    expect(bytes).toContain('postgres')
    expect(bytes).toContain('short answers')
  })

  it('a forgotten workspace leaves no word of it in the file', async () => {
    const store = stores.open({ clock: () => new Date(PURGE_T0) })
    await seedPurgeMemory(store)
    const { id } = await store.purges.request('w', { kind: 'workspace' })
    await store.purges.removeRows('w', id)
    await store.purges.compact('w', id)
    expect(fileWords(stores.file('hymem.sqlite'))).not.toContain('quetzal')
  })
})
