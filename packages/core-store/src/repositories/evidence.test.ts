import { describe, expect, it } from 'vitest'
import { minute, seedChunks } from '../../test/graph-seed'
import { expectStoreError, manualClock, useTempStores } from '../../test/store-harness'

describe('evidence repository: what supports or contradicts an edge', () => {
  const stores = useTempStores()
  const open = async () => {
    const store = stores.open({ clock: manualClock().clock })
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
    expect(await store.evidence.listActiveSupport('w')).toEqual([{ edgeId: edge.id, chunkId: chunks[0]!.id }])
  })
})
