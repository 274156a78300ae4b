import { describe, expect, it } from 'vitest'
import { seedChunk, seedEdge, seedEvidence } from '../../test/graph-seed'
import { expectStoreError, useTempStores } from '../../test/store-harness'

describe('evidence repository', () => {
  const stores = useTempStores()

  it('lists the evidence of one edge, for and against, oldest first', async () => {
    const store = stores.open()
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
