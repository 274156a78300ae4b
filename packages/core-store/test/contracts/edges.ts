import { describe, expect, it } from 'vitest'
import { addAlias } from '../../src/canonical'
import type { ImportedEdge, NewEdge } from '../../src/repositories/edges'
import type { Store } from '../../src/store/types'
import type { BackendUnderTest } from '../backends'
import { seedEdge, seedGraph } from '../graph-seed'
import { expectStoreError } from '../store-harness'

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

const day = (n: number) => new Date(Date.UTC(2026, 2, n)).toISOString()
const triple = (edge: { subject: string; predicate: string; object: string }) =>
  `${edge.subject} ${edge.predicate} ${edge.object}`

async function seed(store: Store, workspaceId: string, edges: readonly NewEdge[]): Promise<number[]> {
  const ids: number[] = []
  for (const edge of edges) ids.push((await store.edges.insert(workspaceId, edge)).id)
  return ids
}

/** The edges cases of the store contract, run against every backend. */
export function describeEdgesContract(backend: BackendUnderTest) {
  describe('edges repository', () => {
    const stores = backend.use()

    it('stores imported edges once per triple and derivation, exactly as given', async () => {
      const store = await stores.open()
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
        learnedAt: null,
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
      const store = await stores.open()
      await store.workspaces.getOrCreate('w')
      const mysql = (await store.edges.insertIfAbsent(edge('team', 'mysql', { status: 'stale' }))) as number
      const postgres = (await store.edges.insertIfAbsent(edge('team', 'postgres'))) as number
      const derived = (await store.edges.insertIfAbsent(
        edge('team', 'postgres', { derived: true }),
      )) as number
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
      expect((await store.edges.getByIds('w', [derived, mysql, 999])).map((e) => e.id)).toEqual([
        mysql,
        derived,
      ])
      expect(await store.edges.getByIds('other', [mysql])).toEqual([])
      expect(await store.edges.countByState('w')).toEqual({ active: 1, stale: 1, retracted: 1, derived: 1 })
      expect(await store.edges.countByState('other')).toEqual({
        active: 0,
        stale: 0,
        retracted: 0,
        derived: 0,
      })
    })

    it('insert stores the edge as given and returns it as a domain object', async () => {
      const store = await stores.open({ clock: () => new Date(day(5)) })
      const edge = await store.edges.insert('w', {
        subject: 'api',
        predicate: 'uses',
        object: 'postgres',
        confidence: 0.7,
        posEvidence: 2,
        derived: true,
      })
      expect(edge).toMatchObject({
        workspaceId: 'w',
        subject: 'api',
        predicate: 'uses',
        object: 'postgres',
        confidence: 0.7,
        posEvidence: 2,
        negEvidence: 0,
        status: 'active',
        derived: true,
        lastSeen: day(5),
        validFrom: day(5),
        validTo: null,
      })
      await expectStoreError(
        store.edges.insert('w', { subject: '', predicate: 'uses', object: 'x' }),
        'INVALID_INPUT',
      )
    })

    it('findBestTouching keeps the best edges per entity, at either end, current only', async () => {
      const store = await stores.open()
      await seed(store, 'w', [
        { subject: 'api', predicate: 'uses', object: 'postgres', confidence: 0.9, seenAt: day(1) },
        { subject: 'api', predicate: 'uses', object: 'redis', confidence: 0.5, seenAt: day(2) },
        { subject: 'api', predicate: 'uses', object: 'kafka', confidence: 0.5, seenAt: day(3) },
        { subject: 'billing', predicate: 'calls', object: 'api', confidence: 0.4, seenAt: day(1) },
        { subject: 'api', predicate: 'uses', object: 'mysql', confidence: 1, status: 'retracted' },
        { subject: 'api', predicate: 'runs_on', object: 'heroku', confidence: 1, validTo: day(4) },
      ])
      await seed(store, 'other', [{ subject: 'api', predicate: 'uses', object: 'oracle', confidence: 1 }])
      const two = await store.edges.findBestTouching('w', ['api'], { perEntity: 2 })
      expect(two.map(triple).sort()).toEqual(['api uses kafka', 'api uses postgres'])
      const all = await store.edges.findBestTouching('w', ['api', 'postgres'], { perEntity: 10 })
      expect(all.map(triple).sort()).toEqual([
        'api uses kafka',
        'api uses postgres',
        'api uses redis',
        'billing calls api',
      ])
      const superseded = await store.edges.findBestTouching('w', ['heroku'], {
        perEntity: 5,
        validity: { includeSuperseded: true },
      })
      expect(superseded.map(triple)).toEqual(['api runs_on heroku'])
      expect(await store.edges.findBestTouching('w', [], { perEntity: 5 })).toEqual([])
    })

    it('respects asOf: valid_from ≤ asOf < valid_to', async () => {
      const store = await stores.open()
      await seed(store, 'w', [
        { subject: 'api', predicate: 'runs_on', object: 'heroku', seenAt: day(1), validTo: day(10) },
        { subject: 'api', predicate: 'runs_on', object: 'fly', seenAt: day(10) },
      ])
      const at = async (asOf: string) =>
        (await store.edges.findBestTouching('w', ['api'], { perEntity: 5, validity: { asOf } })).map(
          (edge) => edge.object,
        )
      expect(await at(day(5))).toEqual(['heroku'])
      expect(await at(day(10))).toEqual(['fly'])
    })

    it('finds routed edges near entities, the strongest under predicates, by id, and the most recent', async () => {
      const store = await stores.open()
      const [postgres, redis, sqlite, old] = await seed(store, 'w', [
        { subject: 'api', predicate: 'uses', object: 'postgres', confidence: 0.9, seenAt: day(1) },
        { subject: 'api', predicate: 'uses', object: 'redis', confidence: 0.6, seenAt: day(5) },
        { subject: 'django', predicate: 'uses', object: 'sqlite', confidence: 0.95, seenAt: day(3) },
        { subject: 'api', predicate: 'uses', object: 'mongo', confidence: 0.99, validTo: day(2) },
        { subject: 'api', predicate: 'likes', object: 'tea', confidence: 0.99, seenAt: day(2) },
      ])
      const near = await store.edges.findTouchingWithPredicates('w', ['api'], ['uses'], { limit: 5 })
      expect(near.map((edge) => edge.id)).toEqual([postgres, redis])
      expect(
        (await store.edges.findTouchingWithPredicates('w', ['api'], ['uses'], { limit: 1 })).map((e) => e.id),
      ).toEqual([postgres])
      const strongest = await store.edges.findStrongestWithPredicates('w', ['uses'], { limit: 2 })
      expect(strongest.map((edge) => edge.id)).toEqual([sqlite, postgres])
      const byId = await store.edges.findCurrentByIds('w', [redis!, old!, 999])
      expect(byId.map((edge) => edge.id)).toEqual([redis])
      expect(await store.edges.findCurrentByIds('other', [redis!])).toEqual([])
      const recent = await store.edges.findMostRecent('w', { limit: 2 })
      expect(recent.map(triple)).toEqual(['api uses redis', 'django uses sqlite'])
    })

    it('lists the entity names on non-retracted edges', async () => {
      const store = await stores.open()
      await seed(store, 'w', [
        { subject: 'api', predicate: 'uses', object: 'postgres' },
        { subject: 'old', predicate: 'uses', object: 'gone', status: 'retracted' },
      ])
      expect((await store.edges.listEntityNames('w')).sort()).toEqual(['api', 'postgres'])
    })

    it('findNamedEntities: aliases, subjects, and objects that pass the shape filter', async () => {
      const store = await stores.open()
      await seed(store, 'w', [
        { subject: 'atta', predicate: 'is', object: 'working' },
        { subject: 'api', predicate: 'uses', object: 'postgres' },
        { subject: 'web', predicate: 'uses', object: 'postgres' },
        { subject: 'api', predicate: 'uses', object: 'redis' },
        { subject: 'api', predicate: 'deploys_to', object: 'fly' },
      ])
      await store.entityTypes.set('w', { entity: 'redis', type: 'database' })
      await addAlias(store, { workspaceId: 'w', surface: 'pg', canonical: 'postgres' })
      const found = await store.edges.findNamedEntities('w', [
        'atta',
        'working',
        'postgres',
        'redis',
        'fly',
        'pg',
      ])
      expect(found.map((match) => `${match.key}→${match.entity}`).sort()).toEqual([
        'atta→atta',
        'pg→postgres',
        'postgres→postgres',
        'redis→redis',
      ])
      expect(await store.edges.findNamedEntities('other', ['atta'])).toEqual([])
    })

    it('findConflicts groups competing objects and opposing predicates, strongest first', async () => {
      const store = await stores.open()
      await seed(store, 'w', [
        { subject: 'atta', predicate: 'prefers', object: 'english', confidence: 0.9 },
        { subject: 'atta', predicate: 'prefers', object: 'dutch', confidence: 0.6 },
        { subject: 'team', predicate: 'likes', object: 'docker', confidence: 0.8 },
        { subject: 'team', predicate: 'rejects', object: 'docker', confidence: 0.7 },
        { subject: 'team', predicate: 'prefers', object: 'vim', confidence: 0.9 },
        { subject: 'team', predicate: 'prefers', object: 'emacs', confidence: 0.9, derived: true },
      ])
      const rules = {
        exclusivePredicates: ['prefers'],
        opposingPredicates: [['likes', 'rejects']] as const,
        limit: 10,
      }
      const conflicts = await store.edges.findConflicts('w', rules)
      expect(
        conflicts.map(({ kind, subject, predicate, object }) => ({ kind, subject, predicate, object })),
      ).toEqual([
        { kind: 'opposing_predicate', subject: 'team', predicate: 'likes|rejects', object: 'docker' },
        { kind: 'competing_object', subject: 'atta', predicate: 'prefers', object: null },
      ])
      expect(conflicts[1]!.edges.map((edge) => edge.object)).toEqual(['english', 'dutch'])
      expect(await store.edges.findConflicts('w', { ...rules, limit: 1 })).toHaveLength(1)
      expect(await store.edges.findConflicts('other', rules)).toEqual([])
    })

    it('findHiddenTouching lists the retracted, superseded and ended edges the validity filter hides', async () => {
      const store = await stores.open()
      const [, successor] = await seed(store, 'w', [
        { subject: 'api', predicate: 'uses', object: 'postgres', seenAt: day(1) },
        { subject: 'api', predicate: 'runs_on', object: 'fly', seenAt: day(6) },
      ])
      const [retracted, superseded, ended] = await seed(store, 'w', [
        { subject: 'api', predicate: 'uses', object: 'mysql', status: 'retracted', seenAt: day(2) },
        { subject: 'api', predicate: 'runs_on', object: 'heroku', seenAt: day(3), validTo: day(6) },
        { subject: 'redis', predicate: 'part_of', object: 'api', seenAt: day(4), validTo: day(5) },
        { subject: 'api', predicate: 'uses', object: 'kafka', seenAt: day(9), validFrom: day(9) },
      ])
      await store.edges.setSupersededBy('w', superseded!, successor!)
      await seed(store, 'other', [
        { subject: 'api', predicate: 'uses', object: 'oracle', status: 'retracted' },
      ])
      const hidden = await store.edges.findHiddenTouching('w', ['api'], { limit: 10 })
      expect(hidden.map((edge) => edge.id)).toEqual([ended, superseded, retracted])
      expect(hidden[1]).toMatchObject({ supersededBy: successor, validTo: day(6) })
      expect(
        (
          await store.edges.findHiddenTouching('w', ['api'], {
            limit: 10,
            validity: { includeSuperseded: true },
          })
        ).map((edge) => edge.id),
      ).toEqual([retracted])
      // At day 5.5 the redis edge has ended, heroku not yet; kafka (valid from day 9) is not hidden, only future.
      const asOf = new Date(Date.UTC(2026, 2, 5, 12)).toISOString()
      expect(
        (await store.edges.findHiddenTouching('w', ['api'], { limit: 10, validity: { asOf } })).map(
          (e) => e.id,
        ),
      ).toEqual([ended, retracted])
      expect(await store.edges.findHiddenTouching('w', ['api'], { limit: 1 })).toHaveLength(1)
      expect(await store.edges.findHiddenTouching('w', [], { limit: 5 })).toEqual([])
      await expectStoreError(store.edges.findHiddenTouching('w', ['api'], { limit: -1 }), 'INVALID_INPUT')
    })
  })

  const triples = (page: { edges: { subject: string; predicate: string; object: string }[] }) =>
    page.edges.map((e) => `${e.subject} ${e.predicate} ${e.object}`)

  describe('edges repository: graph listing', () => {
    const stores = backend.use()

    it('draws current edges by confidence, with the total before the limit', async () => {
      const store = await stores.open()
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
      const store = await stores.open()
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
      expect((await store.edges.listForGraph('w', { text: '\\' })).total).toBe(0)
    })

    it('filters by the session and the peer the evidence came from (or the peer as subject)', async () => {
      const store = await stores.open()
      await seedGraph(store)
      expect(triples(await store.edges.listForGraph('w', { sessionId: 'release' }))).toEqual([
        'api deploys_to flyio',
      ])
      expect(triples(await store.edges.listForGraph('w', { peerId: 'maya' }))).toEqual([
        'job_queue depends_on redis',
        'maya uses type_script',
      ])
      expect(triples(await store.edges.listForGraph('w', { peerId: 'bob' }))).toEqual([
        'api deploys_to flyio',
      ])
      expect((await store.edges.listForGraph('w', { peerId: 'assistant' })).total).toBe(1)
    })

    it('shows the graph as of a date: the superseded edge is back, its successor and retracted edges are not', async () => {
      const store = await stores.open()
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
      const store = await stores.open()
      await expectStoreError(store.edges.listForGraph('w', { limit: 0 }), 'INVALID_INPUT')
      await expectStoreError(store.edges.listForGraph('w', { limit: 1.5 }), 'INVALID_INPUT')
      await expectStoreError(store.edges.listForGraph('w', { entity: ' ' }), 'INVALID_INPUT')
      await expectStoreError(store.edges.listForGraph('w', { asOf: 'last week' }), 'INVALID_INPUT')
    })
  })

  describe('edges repository: one edge and its history', () => {
    const stores = backend.use()

    it('reads one edge of the workspace only', async () => {
      const store = await stores.open()
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
      const store = await stores.open()
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
      const store = await stores.open()
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
      const store = await stores.open()
      await seedGraph(store)
      expect(await store.edges.predicateCounts('w')).toEqual([
        { predicate: 'deploys_to', edges: 2 },
        { predicate: 'uses', edges: 2 },
        { predicate: 'depends_on', edges: 1 },
      ])
    })
  })
}
