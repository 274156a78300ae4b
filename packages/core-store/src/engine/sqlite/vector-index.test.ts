import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { addChunk, vec } from '../../../test/fixtures'
import { useTempStores } from '../../../test/store-harness'
import { builderOf } from '../../store/builder'

describe('vector index backends', () => {
  const stores = useTempStores()

  it('the JS scan looks only at the embeddingMaxScan most recent vectors of the workspace', async () => {
    const store = stores.open({ loadVectorExtension: false, embeddingMaxScan: 3 })
    const rows = []
    for (let i = 0; i < 6; i++) {
      const id = await addChunk(store, 'w', `chunk ${i}`)
      rows.push({ id, workspaceId: 'w', vector: vec(1, i, 0, 0), textHash: `${i}` })
    }
    await store.vectors.upsert('chunks', rows, 'm')
    const hits = await store.vectors.nearest('chunks', vec(1, 0, 0, 0), {
      workspaceId: 'w',
      k: 10,
      model: 'm',
    })
    expect(hits.map((h) => h.id)).toEqual([rows[3]?.id, rows[4]?.id, rows[5]?.id])
  })

  it('creates the vec0 table lazily, cosine-partitioned by workspace, with the pinned dimension', async () => {
    const store = stores.open()
    const before = await sql<{
      name: string
    }>`SELECT name FROM sqlite_master WHERE name GLOB 'vec_*'`.execute(builderOf(store))
    expect(before.rows).toEqual([])
    const id = await addChunk(store, 'w', 'x')
    await store.vectors.upsert('chunks', [{ id, workspaceId: 'w', vector: vec(1, 2, 3), textHash: 'h' }], 'm')
    const table = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE name = 'vec_chunks'`.execute(
      builderOf(store),
    )
    expect(table.rows[0]?.sql).toContain(
      'workspace_id text partition key, embedding float[3] distance_metric=cosine',
    )
  })

  it('vectors written without sqlite-vec are indexed when the extension is next available', async () => {
    const path = stores.file('shared.sqlite')
    const fallback = stores.track(
      (await import('./open-store')).openStore({ path, loadVectorExtension: false }),
    )
    const a = await addChunk(fallback, 'w', 'a')
    const b = await addChunk(fallback, 'w', 'b')
    await fallback.vectors.upsert(
      'chunks',
      [
        { id: a, workspaceId: 'w', vector: vec(1, 0, 0), textHash: 'a' },
        { id: b, workspaceId: 'w', vector: vec(0, 1, 0), textHash: 'b' },
      ],
      'm',
    )
    await fallback.close()
    const native = stores.track((await import('./open-store')).openStore({ path }))
    expect(native.vectors.mode).toBe('sqlite-vec')
    const hits = await native.vectors.nearest('chunks', vec(0, 1, 0), { workspaceId: 'w', k: 2, model: 'm' })
    expect(hits.map((h) => h.id)).toEqual([b, a])
  })
})
