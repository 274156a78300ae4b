import { describe, expect, it } from 'vitest'
import { addChunk } from '../../test/fixtures'
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

  it('inserts a chunk over messages and reads it back by id, within its workspace only', async () => {
    const store = stores.open({ clock: () => new Date('2026-03-01T10:00:00.000Z') })
    const [a, b] = await store.messages.insertBatch('w', 's', [
      { peerId: 'ann', content: 'one' },
      { peerId: 'bob', content: 'two' },
    ])
    const chunk = await store.chunks.insert('w', {
      sessionId: 's',
      text: 'one two',
      salienceReason: 'decision',
      messageIds: [b!.id, a!.id],
      occurredAt: '2026-02-01T00:00:00.000Z',
    })
    expect(chunk).toMatchObject({
      workspaceId: 'w',
      sessionId: 's',
      text: 'one two',
      salienceReason: 'decision',
      messageIds: [b!.id, a!.id],
      firstMessageId: a!.id,
      lastMessageId: b!.id,
      occurredAt: '2026-02-01T00:00:00.000Z',
      createdAt: '2026-03-01T10:00:00.000Z',
    })
    expect(await store.chunks.getByIds('w', [chunk.id, 999])).toEqual([chunk])
    expect(await store.chunks.getByIds('other', [chunk.id])).toEqual([])
    expect(await store.chunks.getByIds('w', [])).toEqual([])
  })

  it('refuses a chunk without message ids', async () => {
    const store = stores.open()
    await expectStoreError(
      store.chunks.insert('w', { sessionId: 's', text: 'x', salienceReason: 'r', messageIds: [] }),
      'INVALID_INPUT',
    )
  })
})
