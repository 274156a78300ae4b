import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'
import { addChunk } from '../fixtures'
import { minute, seedChunk, seedChunks, seedEdge, seedEvidence } from '../graph-seed'
import { expectStoreError, manualClock } from '../store-harness'

const T = '2026-03-01T10:00:00.000Z'

/** The evidence cases of the store contract, run against every backend. */
export function describeEvidenceContract(backend: BackendUnderTest) {
  describe('evidence repository', () => {
    const stores = backend.use()

    it("sourceMessageIds merges each row's own message ids with its chunk's, sorted and de-duplicated", async () => {
      const store = await stores.open()
      const messages = await store.messages.insertBatch('w', 's', [
        { peerId: 'ann', content: 'one' },
        { peerId: 'ann', content: 'two' },
        { peerId: 'ann', content: 'three' },
      ])
      const [m1, m2, m3] = messages.map((message) => message.id) as [number, number, number]
      const chunk = await store.chunks.insertIfNew('w', {
        sessionId: 's',
        text: 'one two',
        salienceReason: 'test',
        messageIds: [m2, m1],
      })
      if (!chunk) throw new Error('expected a new chunk')
      const edge = await store.edges.insert('w', { subject: 'a', predicate: 'uses', object: 'b' })
      const bare = await store.edges.insert('w', { subject: 'a', predicate: 'uses', object: 'c' })
      expect(await store.evidence.add('w', { edgeId: edge.id, chunkId: chunk.id, messageIds: [m3] })).toBe(
        true,
      )
      await store.evidence.add('w', { edgeId: edge.id, messageIds: [m2] })
      expect((await store.evidence.forEdges('w', [edge.id]))[0]).toMatchObject({
        edgeId: edge.id,
        chunkId: chunk.id,
        messageIds: [m3],
        polarity: 1,
      })
      const sources = await store.evidence.sourceMessageIds('w', [edge.id, bare.id])
      expect(sources).toEqual(new Map([[edge.id, [m1, m2, m3]]]))
      expect(await store.evidence.sourceMessageIds('other', [edge.id])).toEqual(new Map())
      expect(await store.evidence.sourceMessageIds('w', [])).toEqual(new Map())
    })

    it('stores evidence as given and returns it per edge, oldest observation first', async () => {
      const store = await stores.open()
      await store.workspaces.getOrCreate('w')
      const first = (
        await store.edges.insert('w', { subject: 'team', predicate: 'uses', object: 'postgres' })
      ).id
      const second = (await store.edges.insert('w', { subject: 'team', predicate: 'uses', object: 'redis' }))
        .id
      const chunkId = await addChunk(store, 'w', 'we use postgres')
      const piece = {
        chunkId: null,
        messageIds: [3, 4],
        polarity: 1 as const,
        valueText: null,
        valueNumeric: null,
        valueUnit: null,
        temporalScope: null,
        evidenceText: 'we use postgres',
        source: 'import',
        promptVersion: null,
        observedAt: '2026-03-02T00:00:00.000Z',
        createdAt: T,
      }
      await store.evidence.add('w', { ...piece, edgeId: first })
      await store.evidence.add('w', { ...piece, edgeId: first, chunkId, polarity: -1, observedAt: T })
      await store.evidence.add('w', { ...piece, edgeId: second, messageIds: [] })
      const found = await store.evidence.forEdges('w', [second, first])
      expect(found.map((e) => [e.edgeId, e.polarity, e.chunkId])).toEqual([
        [first, -1, chunkId],
        [first, 1, null],
        [second, 1, null],
      ])
      expect(found[1]).toMatchObject({ ...piece, workspaceId: 'w', edgeId: first, id: expect.any(Number) })
      expect(await store.evidence.forEdges('other', [first])).toEqual([])
      await expectStoreError(
        store.evidence.add('w', { ...piece, edgeId: first, polarity: 0 as unknown as 1 }),
        'INVALID_INPUT',
      )
      await expectStoreError(
        store.evidence.add('w', { ...piece, edgeId: first, messageIds: [1.5] }),
        'INVALID_INPUT',
      )
    })

    it('refuses evidence without an integer edge id', async () => {
      const store = await stores.open()
      await expectStoreError(store.evidence.add('w', { edgeId: Number.NaN }), 'INVALID_INPUT')
    })
  })

  describe('evidence repository: what supports or contradicts an edge', () => {
    const stores = backend.use()
    const open = async () => {
      const store = await stores.open({ clock: manualClock().clock })
      const chunks = await seedChunks(store, 'w', ['the api uses redis', 'redis is slow', 'still on redis'])
      const edge = await store.edges.insert('w', { subject: 'api', predicate: 'uses', object: 'redis' })
      return { store, chunks, edge }
    }

    it('adds a chunk’s evidence once per polarity and keeps chunkless evidence every time', async () => {
      const { store, chunks, edge } = await open()
      const from = { edgeId: edge.id, chunkId: chunks[0]!.id, messageIds: chunks[0]!.messageIds }
      expect(
        await store.evidence.add('w', { ...from, polarity: 1, valueText: '7', observedAt: minute(0) }),
      ).toBe(true)
      expect(await store.evidence.add('w', { ...from, polarity: 1, observedAt: minute(0) })).toBe(false)
      expect(await store.evidence.add('w', { ...from, polarity: -1, observedAt: minute(0) })).toBe(true)
      expect(await store.evidence.add('w', { edgeId: edge.id, source: 'inference' })).toBe(true)
      expect(await store.evidence.add('w', { edgeId: edge.id, source: 'inference' })).toBe(true)
      const rows = await store.evidence.forEdges('w', [edge.id])
      expect(rows.map((r) => [r.chunkId, r.polarity, r.source])).toEqual([
        [chunks[0]!.id, 1, 'extraction'],
        [chunks[0]!.id, -1, 'extraction'],
        [null, 1, 'inference'],
        [null, 1, 'inference'],
      ])
      expect(rows[0]).toMatchObject({
        valueText: '7',
        messageIds: chunks[0]!.messageIds,
        observedAt: minute(0),
      })
      expect(await store.evidence.forEdges('other', [edge.id])).toEqual([])
      await expectStoreError(
        store.evidence.add('w', { edgeId: edge.id, polarity: 0 as never }),
        'INVALID_INPUT',
      )
      await expectStoreError(store.evidence.add('w', { edgeId: edge.id, messageIds: [1.5] }), 'INVALID_INPUT')
    })

    it('adds many rows in batches, counting only the new ones', async () => {
      const { store, chunks, edge } = await open()
      const others = []
      for (let i = 0; i < 600; i++)
        others.push(
          (await store.edges.insert('w', { subject: `s${i}`, predicate: 'uses', object: 'redis' })).id,
        )
      const decay = (edgeId: number) => ({
        edgeId,
        chunkId: chunks[1]!.id,
        polarity: -1 as const,
        source: 'decay',
        observedAt: chunks[1]!.occurredAt,
      })
      expect(await store.evidence.addMany('w', [decay(edge.id)])).toBe(1)
      expect(await store.evidence.addMany('w', [edge.id, ...others].map(decay))).toBe(600)
      expect(await store.evidence.addMany('w', [])).toBe(0)
    })

    it('removes a decay mark, finds the latest supporting text and the supporting messages', async () => {
      const { store, chunks, edge } = await open()
      const [first, second, third] = chunks
      await store.evidence.add('w', {
        edgeId: edge.id,
        chunkId: first!.id,
        messageIds: first!.messageIds,
        observedAt: minute(0),
      })
      await store.evidence.add('w', {
        edgeId: edge.id,
        chunkId: third!.id,
        messageIds: [...third!.messageIds, first!.messageIds[0]!],
        observedAt: minute(2),
      })
      await store.evidence.add('w', {
        edgeId: edge.id,
        chunkId: second!.id,
        messageIds: second!.messageIds,
        polarity: -1,
        source: 'decay',
        observedAt: minute(1),
      })
      expect(await store.evidence.latestSupportText('w', edge.id)).toBe('still on redis')
      expect(await store.evidence.latestSupportText('other', edge.id)).toBeNull()
      expect(await store.evidence.supportingMessageIds('w', [edge.id])).toEqual(
        [...first!.messageIds, ...third!.messageIds].sort((a, b) => a - b),
      )
      expect(await store.evidence.supportingMessageIds('w', [])).toEqual([])
      await store.evidence.removeDecayMark('w', edge.id, second!.id)
      expect((await store.evidence.forEdges('w', [edge.id])).map((r) => r.source)).toEqual([
        'extraction',
        'extraction',
      ])
    })

    it('lists the (edge, chunk) pairs that support active edges', async () => {
      const { store, chunks, edge } = await open()
      const retracted = await store.edges.insert('w', {
        subject: 'api',
        predicate: 'uses',
        object: 'mysql',
        status: 'retracted',
      })
      for (const edgeId of [edge.id, retracted.id])
        await store.evidence.add('w', { edgeId, chunkId: chunks[0]!.id, observedAt: minute(0) })
      await store.evidence.add('w', { edgeId: edge.id, chunkId: chunks[1]!.id, polarity: -1 })
      await store.evidence.add('w', { edgeId: edge.id, source: 'inference' })
      expect(await store.evidence.listActiveSupport('w')).toEqual([
        { edgeId: edge.id, chunkId: chunks[0]!.id },
      ])
    })
  })

  describe('evidence repository: one edge', () => {
    const stores = backend.use()

    it('lists the evidence of one edge, for and against, oldest first', async () => {
      const store = await stores.open()
      const edge = await seedEdge(store, 'w', { triple: ['api', 'uses', 'redis'] })
      const first = await seedChunk(store, 'w', 's', [['maya', 'The API uses Redis.']])
      const second = await seedChunk(store, 'w', 's', [['maya', 'We stopped using Redis in the API.']])
      await seedEvidence(store, 'w', edge, second, { polarity: -1, observedAt: '2026-02-01T00:00:00.000Z' })
      await seedEvidence(store, 'w', edge, first, { text: 'The API uses Redis.' })
      const evidence = await store.evidence.forEdge('w', edge)
      expect(evidence.map((e) => [e.polarity, e.chunkId, e.messageIds, e.evidenceText])).toEqual([
        [1, first.chunkId, first.messageIds, 'The API uses Redis.'],
        [-1, second.chunkId, second.messageIds, null],
      ])
      expect(await store.evidence.forEdge('other', edge)).toEqual([])
      await expectStoreError(store.evidence.forEdge('w', 1.5), 'INVALID_INPUT')
    })
  })
}
