import { describe, expect, it } from 'vitest'
import { expectStoreError, useTempStores } from '../../test/store-harness'

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

  it('refuses evidence without an integer edge id', async () => {
    const store = stores.open()
    await expectStoreError(store.evidence.insert('w', { edgeId: Number.NaN }), 'INVALID_INPUT')
  })
})
