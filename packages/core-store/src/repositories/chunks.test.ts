import { describe, expect, it } from 'vitest'
import { addChunk, addEpisode } from '../../test/fixtures'
import { seedChunk } from '../../test/graph-seed'
import { expectStoreError, useTempStores } from '../../test/store-harness'
import type { Store } from '../store/types'

async function markProcessed(store: Store, chunkId: number, promptVersion: string) {
  await store.db
    .insertInto('processed_chunks')
    .values({
      chunk_id: chunkId,
      prompt_version: promptVersion,
      extractor: 'rules',
      processed_at: '2026-03-01T10:00:00.000Z',
    })
    .execute()
}

describe('chunks repository', () => {
  const stores = useTempStores()

  it('lists a workspace by id and counts the chunks a prompt version has not processed', async () => {
    const store = stores.open()
    const a = await addChunk(store, 'w', 'first')
    const b = await addChunk(store, 'w', 'second')
    const other = await addChunk(store, 'x', 'elsewhere')
    expect((await store.chunks.listAll('w')).map((c) => [c.id, c.text])).toEqual([
      [a, 'first'],
      [b, 'second'],
    ])
    await markProcessed(store, a, 'v1')
    await markProcessed(store, b, 'v0')
    await markProcessed(store, other, 'v1')
    expect(await store.chunks.countUnprocessed('w', 'v1')).toBe(1)
    expect(await store.chunks.countUnprocessed('w', 'v2')).toBe(2)
  })

  it('clears the processing marks of one workspace only', async () => {
    const store = stores.open()
    const a = await addChunk(store, 'w', 'first')
    const other = await addChunk(store, 'x', 'elsewhere')
    await markProcessed(store, a, 'v1')
    await markProcessed(store, other, 'v1')
    await store.chunks.clearProcessed('w')
    expect(await store.chunks.countUnprocessed('w', 'v1')).toBe(1)
    expect(await store.chunks.countUnprocessed('x', 'v1')).toBe(0)
  })
})

describe('episodes repository', () => {
  const stores = useTempStores()

  it('lists every episode of a workspace by id', async () => {
    const store = stores.open()
    await store.sessions.getOrCreate('w', 's')
    await store.sessions.getOrCreate('x', 's')
    await addEpisode(store, 'w', 'ep-b', 'Billing', 'Moved billing to Postgres.')
    await addEpisode(store, 'w', 'ep-a', 'Deploys', 'Deploys on Fridays.')
    await addEpisode(store, 'x', 'ep-c', 'Other', 'Elsewhere.')
    const episodes = await store.episodes.listAll('w')
    expect(episodes.map((e) => [e.id, e.title, e.summary])).toEqual([
      ['ep-a', 'Deploys', 'Deploys on Fridays.'],
      ['ep-b', 'Billing', 'Moved billing to Postgres.'],
    ])
  })
})

describe('chunks repository: by id', () => {
  const stores = useTempStores()

  it('reads chunks of one workspace by id, in the order asked', async () => {
    const store = stores.open()
    const a = await seedChunk(store, 'w', 's', [['maya', 'first']])
    const b = await seedChunk(store, 'w', 's', [['maya', 'second']])
    const elsewhere = await seedChunk(store, 'other', 's', [['maya', 'elsewhere']])
    const chunks = await store.chunks.getByIds('w', [b.chunkId, a.chunkId, elsewhere.chunkId, 999, b.chunkId])
    expect(chunks.map((c) => [c.id, c.text, c.sessionId, c.messageIds])).toEqual([
      [b.chunkId, 'second', 's', b.messageIds],
      [a.chunkId, 'first', 's', a.messageIds],
    ])
    await expectStoreError(store.chunks.getByIds('w', [Number.NaN]), 'INVALID_INPUT')
  })
})
