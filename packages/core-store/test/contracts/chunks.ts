import { describe, expect, it } from 'vitest'
import type { Store } from '../../src/store/types'
import type { BackendUnderTest } from '../backends'
import { addChunk } from '../fixtures'
import { minute, seedChunk, seedChunks } from '../graph-seed'
import { expectStoreError, manualClock } from '../store-harness'

async function markProcessed(store: Store, workspaceId: string, chunkId: number, promptVersion: string) {
  await store.chunks.markProcessed(workspaceId, chunkId, { promptVersion, extractor: 'rules' })
}

/** The chunks cases of the store contract, run against every backend. */
export function describeChunksContract(backend: BackendUnderTest) {
  describe('chunks repository', () => {
    const stores = backend.use()

    it('lists a workspace by id and counts the chunks a prompt version has not processed', async () => {
      const store = await stores.open()
      const a = await addChunk(store, 'w', 'first')
      const b = await addChunk(store, 'w', 'second')
      const other = await addChunk(store, 'x', 'elsewhere')
      expect((await store.chunks.listAll('w')).map((c) => [c.id, c.text])).toEqual([
        [a, 'first'],
        [b, 'second'],
      ])
      await markProcessed(store, 'w', a, 'v1')
      await markProcessed(store, 'w', b, 'v0')
      await markProcessed(store, 'x', other, 'v1')
      expect(await store.chunks.countUnprocessed('w', 'v1')).toBe(1)
      expect(await store.chunks.countUnprocessed('w', 'v2')).toBe(2)
    })

    it('counts the unprocessed chunks per session, leaving out sessions with none', async () => {
      const store = await stores.open()
      const a = await addChunk(store, 'w', 'first', 's1')
      await addChunk(store, 'w', 'second', 's1')
      await addChunk(store, 'w', 'third', 's2')
      const done = await addChunk(store, 'w', 'fourth', 's3')
      await addChunk(store, 'x', 'elsewhere', 's1')
      await markProcessed(store, 'w', a, 'v1')
      await markProcessed(store, 'w', done, 'v1')
      expect(await store.chunks.countUnprocessedBySession('w', 'v1')).toEqual([
        { sessionId: 's1', chunks: 1 },
        { sessionId: 's2', chunks: 1 },
      ])
      expect(await store.chunks.countUnprocessedBySession('w', 'v2')).toEqual([
        { sessionId: 's1', chunks: 2 },
        { sessionId: 's2', chunks: 1 },
        { sessionId: 's3', chunks: 1 },
      ])
      await expectStoreError(store.chunks.countUnprocessedBySession('w', ''), 'INVALID_INPUT')
    })

    it('marks a chunk processed only within its own workspace', async () => {
      const store = await stores.open()
      const other = await addChunk(store, 'x', 'elsewhere')
      await markProcessed(store, 'w', other, 'v1')
      expect(await store.chunks.countUnprocessed('x', 'v1')).toBe(1)
      expect(await store.chunks.listProcessed('w')).toEqual([])
      await expectStoreError(
        store.chunks.markProcessed('', other, { promptVersion: 'v1', extractor: 'rules' }),
        'INVALID_INPUT',
      )
    })

    it('clears the processing marks of one workspace only', async () => {
      const store = await stores.open()
      const a = await addChunk(store, 'w', 'first')
      const other = await addChunk(store, 'x', 'elsewhere')
      await markProcessed(store, 'w', a, 'v1')
      await markProcessed(store, 'x', other, 'v1')
      await store.chunks.clearProcessed('w')
      expect(await store.chunks.countUnprocessed('w', 'v1')).toBe(1)
      expect(await store.chunks.countUnprocessed('x', 'v1')).toBe(0)
    })

    it('inserts a chunk over messages and reads it back by id, within its workspace only', async () => {
      const store = await stores.open({ clock: () => new Date('2026-03-01T10:00:00.000Z') })
      const [a, b] = await store.messages.insertBatch('w', 's', [
        { peerId: 'ann', content: 'one' },
        { peerId: 'bob', content: 'two' },
      ])
      const chunk = await store.chunks.insertIfNew('w', {
        sessionId: 's',
        text: 'one two',
        salienceReason: 'decision',
        messageIds: [b!.id, a!.id],
        occurredAt: '2026-02-01T00:00:00.000Z',
      })
      if (!chunk) throw new Error('expected a new chunk')
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
      const store = await stores.open()
      await expectStoreError(
        store.chunks.insertIfNew('w', { sessionId: 's', text: 'x', salienceReason: 'r', messageIds: [] }),
        'INVALID_INPUT',
      )
    })
  })

  describe('chunks repository: chunking, processing marks and retention', () => {
    const stores = backend.use()

    it('inserts a chunk once per span of a session', async () => {
      const store = await stores.open({ clock: manualClock().clock })
      const messages = await store.messages.insertBatch('w', 's', [
        { peerId: 'alice', content: 'We use Go.', createdAt: minute(0) },
        { peerId: 'alice', content: 'And Postgres.', createdAt: minute(1) },
      ])
      const ids = messages.map((m) => m.id)
      const chunk = { sessionId: 's', text: 'Go and Postgres', salienceReason: 'technology', messageIds: ids }
      const first = await store.chunks.insertIfNew('w', { ...chunk, occurredAt: minute(1) })
      expect(first).toMatchObject({
        workspaceId: 'w',
        sessionId: 's',
        messageIds: ids,
        firstMessageId: ids[0],
        lastMessageId: ids[1],
        occurredAt: minute(1),
        createdAt: '2026-03-01T10:00:00.000Z',
      })
      expect(await store.chunks.insertIfNew('w', chunk)).toBeNull()
      expect(await store.chunks.listAll('w')).toEqual([first])
      expect(await store.chunks.count('w')).toBe(1)
      await expectStoreError(store.chunks.insertIfNew('w', { ...chunk, messageIds: [] }), 'INVALID_INPUT')
    })

    it('lists unprocessed chunks oldest first per prompt version and records processing once', async () => {
      const store = await stores.open({ clock: manualClock().clock })
      const [a, b, c] = await seedChunks(store, 'w', ['a', 'b', 'c'])
      await store.chunks.markProcessed('w', b!.id, { promptVersion: 'v1', extractor: 'rules' })
      await store.chunks.markProcessed('w', b!.id, { promptVersion: 'v1', extractor: 'other' })
      expect((await store.chunks.listUnprocessed('w', 'v1', 10)).map((x) => x.id)).toEqual([a!.id, c!.id])
      expect((await store.chunks.listUnprocessed('w', 'v1', 1)).map((x) => x.id)).toEqual([a!.id])
      expect(await store.chunks.countUnprocessed('w', 'v1')).toBe(2)
      expect(await store.chunks.countUnprocessed('w', 'v2')).toBe(3)
      expect(await store.chunks.listProcessed('w')).toEqual([
        { chunkId: b!.id, promptVersion: 'v1', extractor: 'rules', processedAt: '2026-03-01T10:00:00.000Z' },
      ])
      await expectStoreError(store.chunks.listUnprocessed('w', 'v1', -1), 'INVALID_INPUT')
    })

    it('gives the processed tail of a session, the chunks since a time and those without a vector', async () => {
      const store = await stores.open({ clock: manualClock().clock })
      const [a, b, c] = await seedChunks(store, 'w', ['a', 'b', 'c'])
      const [other] = await seedChunks(store, 'w', ['d'], { sessionId: 's2', start: 10 })
      for (const chunk of [a!, b!, c!, other!])
        await store.chunks.markProcessed('w', chunk.id, { promptVersion: 'v1', extractor: 'rules' })
      expect((await store.chunks.listProcessedTail('w', 's', 'v1', 2)).map((x) => x.id)).toEqual([
        b!.id,
        c!.id,
      ])
      expect(await store.chunks.listProcessedTail('w', 's', 'v2', 2)).toEqual([])
      expect((await store.chunks.listSince('w', minute(2))).map((x) => x.id).sort()).toEqual([
        c!.id,
        other!.id,
      ])
      await store.vectors.upsert(
        'chunks',
        [{ id: b!.id, workspaceId: 'w', vector: new Float32Array([1, 0]), textHash: 'h' }],
        'model',
      )
      expect((await store.chunks.listUnembedded('w')).map((x) => x.id)).toEqual([a!.id, c!.id, other!.id])
    })

    it('lists processed chunks older than a time for eviction and deletes them', async () => {
      const store = await stores.open({ clock: manualClock().clock })
      const [a, b, c] = await seedChunks(store, 'w', ['a', 'b', 'c'])
      for (const chunk of [b!, a!, c!])
        await store.chunks.markProcessed('w', chunk.id, { promptVersion: 'v1', extractor: 'rules' })
      await seedChunks(store, 'w', ['unprocessed'], { start: -5 })
      expect(await store.chunks.listEvictable('w', minute(2))).toEqual([a!.id, b!.id])
      expect(await store.chunks.delete('other', [a!.id])).toBe(0)
      expect(await store.chunks.delete('w', [a!.id, b!.id])).toBe(2)
      expect(await store.chunks.listProcessed('w')).toEqual([expect.objectContaining({ chunkId: c!.id })])
      expect(await store.chunks.count('w')).toBe(2)
    })
  })

  describe('chunks repository: by id', () => {
    const stores = backend.use()

    it('reads chunks of one workspace by id, in the order asked', async () => {
      const store = await stores.open()
      const a = await seedChunk(store, 'w', 's', [['maya', 'first']])
      const b = await seedChunk(store, 'w', 's', [['maya', 'second']])
      const elsewhere = await seedChunk(store, 'other', 's', [['maya', 'elsewhere']])
      const chunks = await store.chunks.getByIds('w', [
        b.chunkId,
        a.chunkId,
        elsewhere.chunkId,
        999,
        b.chunkId,
      ])
      expect(chunks.map((c) => [c.id, c.text, c.sessionId, c.messageIds])).toEqual([
        [b.chunkId, 'second', 's', b.messageIds],
        [a.chunkId, 'first', 's', a.messageIds],
      ])
      await expectStoreError(store.chunks.getByIds('w', [Number.NaN]), 'INVALID_INPUT')
    })
  })
}
