import { describe, expect, it } from 'vitest'
import { addChunk } from '../../test/fixtures'
import { seedEdge, seedGraph } from '../../test/graph-seed'
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

const triples = (page: { edges: { subject: string; predicate: string; object: string }[] }) =>
  page.edges.map((e) => `${e.subject} ${e.predicate} ${e.object}`)

describe('edges repository: graph listing', () => {
  const stores = useTempStores()

  it('draws current edges by confidence, with the total before the limit', async () => {
    const store = stores.open()
    await seedGraph(store)
    const page = await store.edges.listForGraph('w', {})
    expect(triples(page)).toEqual([
      'api deploys_to flyio',
      'job_queue depends_on redis',
      'maya uses type_script',
    ])
    expect(page.total).toBe(3)
    const top = await store.edges.listForGraph('w', { limit: 1, includeInactive: true })
    expect(triples(top)).toEqual(['api deploys_to flyio'])
    expect(top.total).toBe(5)
  })

  it('filters by entity, predicate and free text (spaces match underscores, wildcards are literal)', async () => {
    const store = stores.open()
    await seedGraph(store)
    expect(triples(await store.edges.listForGraph('w', { entity: 'api', includeInactive: true }))).toEqual([
      'api deploys_to flyio',
      'api uses my_sql',
      'api deploys_to heroku',
    ])
    expect(triples(await store.edges.listForGraph('w', { predicate: 'uses' }))).toEqual([
      'maya uses type_script',
    ])
    expect(triples(await store.edges.listForGraph('w', { text: 'Type Script' }))).toEqual([
      'maya uses type_script',
    ])
    expect(triples(await store.edges.listForGraph('w', { text: 'depends' }))).toEqual([
      'job_queue depends_on redis',
    ])
    expect((await store.edges.listForGraph('w', { text: '%' })).total).toBe(0)
  })

  it('filters by the session and the peer the evidence came from (or the peer as subject)', async () => {
    const store = stores.open()
    await seedGraph(store)
    expect(triples(await store.edges.listForGraph('w', { sessionId: 'release' }))).toEqual([
      'api deploys_to flyio',
    ])
    expect(triples(await store.edges.listForGraph('w', { peerId: 'maya' }))).toEqual([
      'job_queue depends_on redis',
      'maya uses type_script',
    ])
    expect(triples(await store.edges.listForGraph('w', { peerId: 'bob' }))).toEqual(['api deploys_to flyio'])
    expect((await store.edges.listForGraph('w', { peerId: 'assistant' })).total).toBe(1)
  })

  it('shows the graph as of a date: the superseded edge is back, its successor and retracted edges are not', async () => {
    const store = stores.open()
    await seedGraph(store)
    const before = await store.edges.listForGraph('w', { asOf: '2026-02-01' })
    expect(triples(before)).toEqual([
      'job_queue depends_on redis',
      'api deploys_to heroku',
      'maya uses type_script',
    ])
    const withRetracted = await store.edges.listForGraph('w', { asOf: '2026-02-01', includeInactive: true })
    expect(triples(withRetracted)).toContain('api uses my_sql')
  })

  it('refuses a bad limit, an empty filter value and a time that is not ISO-8601', async () => {
    const store = stores.open()
    await expectStoreError(store.edges.listForGraph('w', { limit: 0 }), 'INVALID_INPUT')
    await expectStoreError(store.edges.listForGraph('w', { limit: 1.5 }), 'INVALID_INPUT')
    await expectStoreError(store.edges.listForGraph('w', { entity: ' ' }), 'INVALID_INPUT')
    await expectStoreError(store.edges.listForGraph('w', { asOf: 'last week' }), 'INVALID_INPUT')
  })
})

describe('edges repository: one edge and its history', () => {
  const stores = useTempStores()

  it('reads one edge of the workspace only', async () => {
    const store = stores.open()
    const { fly } = await seedGraph(store)
    expect(await store.edges.getById('w', fly)).toMatchObject({
      subject: 'api',
      predicate: 'deploys_to',
      object: 'flyio',
      status: 'active',
      derived: false,
    })
    expect(await store.edges.getById('other', fly)).toBeNull()
    await expectStoreError(store.edges.getById('w', Number.NaN), 'INVALID_INPUT')
  })

  it('follows the supersede chain both ways', async () => {
    const store = stores.open()
    const { fly, heroku } = await seedGraph(store)
    const render = await seedEdge(store, 'w', {
      triple: ['api', 'deploys_to', 'render'],
      validFrom: '2025-06-01T00:00:00.000Z',
      validTo: '2026-01-01T00:00:00.000Z',
      status: 'stale',
      supersededBy: heroku,
    })
    const ids = (edges: { id: number }[]) => edges.map((e) => e.id)
    const middle = await store.edges.supersedeChain('w', heroku)
    expect(ids(middle.replaced)).toEqual([render])
    expect(ids(middle.replacedBy)).toEqual([fly])
    const newest = await store.edges.supersedeChain('w', fly)
    expect(ids(newest.replaced)).toEqual([heroku, render])
    expect(newest.replacedBy).toEqual([])
  })

  it('counts appearances and supersessions per day, and lists the latest changes', async () => {
    const store = stores.open()
    await seedGraph(store)
    await seedEdge(store, 'w', { triple: ['a', 'implies', 'b'], derived: true })
    expect(await store.edges.historyByDay('w')).toEqual([
      { day: '2026-01-01', appeared: 4, superseded: 0 },
      { day: '2026-03-01', appeared: 1, superseded: 1 },
    ])
    const recent = await store.edges.recentlyChanged('w', 2)
    expect(recent.map((e) => e.object)).toEqual(['heroku', 'flyio'])
    await expectStoreError(store.edges.recentlyChanged('w', 0), 'INVALID_INPUT')
  })

  it('counts edges per predicate, most used first', async () => {
    const store = stores.open()
    await seedGraph(store)
    expect(await store.edges.predicateCounts('w')).toEqual([
      { predicate: 'deploys_to', edges: 2 },
      { predicate: 'uses', edges: 2 },
      { predicate: 'depends_on', edges: 1 },
    ])
  })
})
