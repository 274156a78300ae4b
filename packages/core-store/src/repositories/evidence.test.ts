import { describe, expect, it } from 'vitest'
import { addChunk } from '../../test/fixtures'
import { expectStoreError, useTempStores } from '../../test/store-harness'

const T = '2026-03-01T10:00:00.000Z'

describe('evidence repository', () => {
  const stores = useTempStores()

  it("sourceMessageIds merges each row's own message ids with its chunk's, sorted and de-duplicated", async () => {
    const store = stores.open()
    const messages = await store.messages.insertBatch('w', 's', [
      { peerId: 'ann', content: 'one' },
      { peerId: 'ann', content: 'two' },
      { peerId: 'ann', content: 'three' },
    ])
    const [m1, m2, m3] = messages.map((message) => message.id) as [number, number, number]
    const chunk = await store.chunks.insert('w', {
      sessionId: 's',
      text: 'one two',
      salienceReason: 'test',
      messageIds: [m2, m1],
    })
    const edge = await store.edges.insert('w', { subject: 'a', predicate: 'uses', object: 'b' })
    const bare = await store.edges.insert('w', { subject: 'a', predicate: 'uses', object: 'c' })
    const evidence = await store.evidence.insert('w', {
      edgeId: edge.id,
      chunkId: chunk.id,
      messageIds: [m3],
    })
    await store.evidence.insert('w', { edgeId: edge.id, messageIds: [m2] })
    expect(evidence).toMatchObject({ edgeId: edge.id, chunkId: chunk.id, messageIds: [m3], polarity: 1 })
    const sources = await store.evidence.sourceMessageIds('w', [edge.id, bare.id])
    expect(sources).toEqual(new Map([[edge.id, [m1, m2, m3]]]))
    expect(await store.evidence.sourceMessageIds('other', [edge.id])).toEqual(new Map())
    expect(await store.evidence.sourceMessageIds('w', [])).toEqual(new Map())
  })

  it('stores evidence as given and returns it per edge, oldest observation first', async () => {
    const store = stores.open()
    await store.workspaces.getOrCreate('w')
    const first = (await store.edges.insert('w', { subject: 'team', predicate: 'uses', object: 'postgres' }))
      .id
    const second = (await store.edges.insert('w', { subject: 'team', predicate: 'uses', object: 'redis' })).id
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
    await store.evidence.insert('w', { ...piece, edgeId: first })
    await store.evidence.insert('w', { ...piece, edgeId: first, chunkId, polarity: -1, observedAt: T })
    await store.evidence.insert('w', { ...piece, edgeId: second, messageIds: [] })
    const found = await store.evidence.forEdges('w', [second, first])
    expect(found.map((e) => [e.edgeId, e.polarity, e.chunkId])).toEqual([
      [first, -1, chunkId],
      [first, 1, null],
      [second, 1, null],
    ])
    expect(found[1]).toMatchObject({ ...piece, workspaceId: 'w', edgeId: first, id: expect.any(Number) })
    expect(await store.evidence.forEdges('other', [first])).toEqual([])
    await expectStoreError(
      store.evidence.insert('w', { ...piece, edgeId: first, polarity: 0 as unknown as 1 }),
      'INVALID_INPUT',
    )
    await expectStoreError(
      store.evidence.insert('w', { ...piece, edgeId: first, messageIds: [1.5] }),
      'INVALID_INPUT',
    )
  })

  it('refuses evidence without an integer edge id', async () => {
    const store = stores.open()
    await expectStoreError(store.evidence.insert('w', { edgeId: Number.NaN }), 'INVALID_INPUT')
  })
})
