import { describe, expect, it } from 'vitest'
import { addChunk } from '../../test/fixtures'
import { expectStoreError, useTempStores } from '../../test/store-harness'
import type { ImportedEdge } from './edges'

const T = '2026-03-01T10:00:00.000Z'

function edge(subject: string, object: string, fields: Partial<ImportedEdge> = {}): ImportedEdge {
  return {
    workspaceId: 'w',
    subject,
    predicate: 'uses',
    object,
    posEvidence: 1,
    negEvidence: 0,
    confidence: 0.6,
    status: 'active',
    derived: false,
    firstSeen: T,
    lastSeen: T,
    lastReinforced: T,
    validFrom: T,
    validTo: null,
    ...fields,
  }
}

describe('edges repository', () => {
  const stores = useTempStores()

  it('stores imported edges once per triple and derivation, exactly as given', async () => {
    const store = stores.open()
    await store.workspaces.getOrCreate('w')
    const id = await store.edges.insertIfAbsent(edge('team', 'postgres', { status: 'stale', validTo: T }))
    expect(id).toEqual(expect.any(Number))
    expect(await store.edges.insertIfAbsent(edge('team', 'postgres', { posEvidence: 9 }))).toBeNull()
    const derivedId = await store.edges.insertIfAbsent(edge('team', 'postgres', { derived: true }))
    expect(derivedId).not.toBe(id)
    expect(
      await store.edges.findByKey('w', {
        subject: 'team',
        predicate: 'uses',
        object: 'postgres',
        derived: false,
      }),
    ).toEqual({
      ...edge('team', 'postgres', { status: 'stale', validTo: T }),
      id,
      supersededBy: null,
    })
    expect(
      await store.edges.findByKey('other', {
        subject: 'team',
        predicate: 'uses',
        object: 'postgres',
        derived: false,
      }),
    ).toBeNull()
    await expectStoreError(store.edges.insertIfAbsent(edge('', 'x')), 'INVALID_INPUT')
    await expectStoreError(
      store.edges.insertIfAbsent(edge('a', 'b', { status: 'gone' as ImportedEdge['status'] })),
      'INVALID_INPUT',
    )
  })

  it('lists by triple with stated before derived, fetches by id, links supersedes and counts states', async () => {
    const store = stores.open()
    await store.workspaces.getOrCreate('w')
    const mysql = (await store.edges.insertIfAbsent(edge('team', 'mysql', { status: 'stale' }))) as number
    const postgres = (await store.edges.insertIfAbsent(edge('team', 'postgres'))) as number
    const derived = (await store.edges.insertIfAbsent(edge('team', 'postgres', { derived: true }))) as number
    await store.edges.insertIfAbsent(edge('alice', 'vim', { status: 'retracted' }))
    await store.edges.setSupersededBy('w', mysql, postgres)
    const all = await store.edges.listAll('w')
    expect(all.map((e) => [e.subject, e.object, e.derived])).toEqual([
      ['alice', 'vim', false],
      ['team', 'mysql', false],
      ['team', 'postgres', false],
      ['team', 'postgres', true],
    ])
    expect(all[1]?.supersededBy).toBe(postgres)
    expect((await store.edges.getByIds([derived, mysql, 999])).map((e) => e.id)).toEqual([mysql, derived])
    expect(await store.edges.countByState('w')).toEqual({ active: 1, stale: 1, retracted: 1, derived: 1 })
    expect(await store.edges.countByState('other')).toEqual({ active: 0, stale: 0, retracted: 0, derived: 0 })
  })
})

describe('evidence repository', () => {
  const stores = useTempStores()

  it('stores evidence as given and returns it per edge, oldest observation first', async () => {
    const store = stores.open()
    await store.workspaces.getOrCreate('w')
    const first = (await store.edges.insertIfAbsent(edge('team', 'postgres'))) as number
    const second = (await store.edges.insertIfAbsent(edge('team', 'redis'))) as number
    const chunkId = await addChunk(store, 'w', 'we use postgres')
    const piece = {
      workspaceId: 'w',
      chunkId: null,
      messageIds: [3, 4],
      polarity: 1,
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
    await store.evidence.insert({ ...piece, edgeId: first })
    await store.evidence.insert({ ...piece, edgeId: first, chunkId, polarity: -1, observedAt: T })
    await store.evidence.insert({ ...piece, edgeId: second, messageIds: [] })
    const found = await store.evidence.forEdges('w', [second, first])
    expect(found.map((e) => [e.edgeId, e.polarity, e.chunkId])).toEqual([
      [first, -1, chunkId],
      [first, 1, null],
      [second, 1, null],
    ])
    expect(found[1]).toMatchObject({ ...piece, edgeId: first, id: expect.any(Number) })
    expect(await store.evidence.forEdges('other', [first])).toEqual([])
    await expectStoreError(store.evidence.insert({ ...piece, edgeId: first, polarity: 0 }), 'INVALID_INPUT')
  })
})
