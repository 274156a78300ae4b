import { describe, expect, it } from 'vitest'
import { seedChunk } from '../../test/graph-seed'
import { expectStoreError, useTempStores } from '../../test/store-harness'

describe('chunks repository', () => {
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
