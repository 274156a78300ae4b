import { describe, expect, it } from 'vitest'
import { addChunk, addNote, vec } from '../../../test/fixtures'
import { expectStoreError, useTempStores } from '../../../test/store-harness'
import type { Store } from '../../store/types'

async function seed(store: Store) {
  const chunk = await addChunk(store, 'w', 'east')
  await addNote(store, 'w', 'n1', 'Deploy day', 'Fridays')
  await store.vectors.upsert(
    'notes',
    [{ id: 'n1', workspaceId: 'w', vector: vec(0, 1, 0), textHash: 'n' }],
    'old-3d',
  )
  await store.vectors.upsert(
    'chunks',
    [{ id: chunk, workspaceId: 'w', vector: vec(1, 0, 0), textHash: 'c' }],
    'old-3d',
  )
  return chunk
}

for (const loadVectorExtension of [true, false]) {
  describe(`vector pins and reset (${loadVectorExtension ? 'sqlite-vec' : 'JS cosine scan'})`, () => {
    const stores = useTempStores()

    it('lists the pins by index name, and a reset drops every vector and pin so a new model can pin', async () => {
      const store = stores.open({ loadVectorExtension })
      expect(await store.vectors.pins()).toEqual([])
      const chunk = await seed(store)
      expect(await store.vectors.pins()).toEqual([
        { index: 'chunks', model: 'old-3d', dimensions: 3 },
        { index: 'notes', model: 'old-3d', dimensions: 3 },
      ])
      await store.transaction(async (tx) => {
        await tx.vectors.reset()
        await tx.vectors.upsert(
          'chunks',
          [{ id: chunk, workspaceId: 'w', vector: vec(1, 0, 0, 0), textHash: 'c' }],
          'new-4d',
        )
      })
      expect(await store.vectors.pins()).toEqual([{ index: 'chunks', model: 'new-4d', dimensions: 4 }])
      expect(await store.vectors.textHashes('notes', 'w', ['n1'])).toEqual(new Map())
      const hits = await store.vectors.nearest('chunks', vec(1, 0, 0, 0), {
        workspaceId: 'w',
        k: 5,
        model: 'new-4d',
      })
      expect(hits.map((hit) => hit.id)).toEqual([chunk])
    })
  })
}

describe('vector reset without the extension that built the index', () => {
  const stores = useTempStores()

  it('refuses with VECTOR_UNAVAILABLE and changes nothing', async () => {
    const built = stores.open({ loadVectorExtension: true })
    if (built.vectors.mode !== 'sqlite-vec') throw new Error('sqlite-vec did not load on this machine')
    await seed(built)
    await built.close()
    const store = stores.open({ loadVectorExtension: false })
    await expectStoreError(store.vectors.reset(), 'VECTOR_UNAVAILABLE')
    expect((await store.vectors.pins()).map((pin) => pin.index)).toEqual(['chunks', 'notes'])
    expect(await store.vectors.textHashes('notes', 'w', ['n1'])).toEqual(new Map([['n1', 'n']]))
  })
})
