import { describe, expect, it } from 'vitest'
import { expectStoreError, useTempStores } from '../../test/store-harness'
import { addAlias } from '../canonical'
import type { Store } from '../store/types'
import type { NewEdge } from './edges'

const day = (n: number) => new Date(Date.UTC(2026, 2, n)).toISOString()
const triple = (edge: { subject: string; predicate: string; object: string }) =>
  `${edge.subject} ${edge.predicate} ${edge.object}`

async function seed(store: Store, workspaceId: string, edges: readonly NewEdge[]): Promise<number[]> {
  const ids: number[] = []
  for (const edge of edges) ids.push((await store.edges.insert(workspaceId, edge)).id)
  return ids
}

describe('edges repository', () => {
  const stores = useTempStores()

  it('insert stores the edge as given and returns it as a domain object', async () => {
    const store = stores.open({ clock: () => new Date(day(5)) })
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
    const store = stores.open()
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
    const store = stores.open()
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
    const store = stores.open()
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
    const store = stores.open()
    await seed(store, 'w', [
      { subject: 'api', predicate: 'uses', object: 'postgres' },
      { subject: 'old', predicate: 'uses', object: 'gone', status: 'retracted' },
    ])
    expect((await store.edges.listEntityNames('w')).sort()).toEqual(['api', 'postgres'])
  })

  it('findNamedEntities: aliases, subjects, and objects that pass the shape filter', async () => {
    const store = stores.open()
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
    const store = stores.open()
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
    const store = stores.open()
    const [, successor] = await seed(store, 'w', [
      { subject: 'api', predicate: 'uses', object: 'postgres', seenAt: day(1) },
      { subject: 'api', predicate: 'runs_on', object: 'fly', seenAt: day(6) },
    ])
    const [retracted, superseded, ended] = await seed(store, 'w', [
      { subject: 'api', predicate: 'uses', object: 'mysql', status: 'retracted', seenAt: day(2) },
      {
        subject: 'api',
        predicate: 'runs_on',
        object: 'heroku',
        seenAt: day(3),
        validTo: day(6),
        supersededBy: successor!,
      },
      { subject: 'redis', predicate: 'part_of', object: 'api', seenAt: day(4), validTo: day(5) },
      { subject: 'api', predicate: 'uses', object: 'kafka', seenAt: day(9), validFrom: day(9) },
    ])
    await seed(store, 'other', [{ subject: 'api', predicate: 'uses', object: 'oracle', status: 'retracted' }])
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
