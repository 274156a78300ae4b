import { describe, expect, it } from 'vitest'
import { aliasesOf, edgesOf, seedEdge } from '../../test/canonical-seed'
import { addChunk } from '../../test/fixtures'
import { useTempStores } from '../../test/store-harness'
import { builderOf } from '../store/builder'
import { findCanonicalDrift, repairCanonicalDrift } from './drift'

const T = '2026-03-01T10:00:00.000Z'

describe('findCanonicalDrift / repairCanonicalDrift', () => {
  const stores = useTempStores()

  it('finds nothing in a canonical database', async () => {
    const store = stores.open()
    await seedEdge(store, ['app', 'uses', 'postgresql'])
    await builderOf(store)
      .insertInto('entity_aliases')
      .values({ workspace_id: 'w1', surface: 'pg', canonical: 'postgresql', created_at: T })
      .execute()
    expect(await findCanonicalDrift(store)).toEqual([])
    expect(await repairCanonicalDrift(store)).toEqual({ merges: [], aliasSurfacesFixed: 0, skipped: [] })
  })

  it('reports every drifted name with where it is and how many rows hold it', async () => {
    const store = stores.open()
    await seedEdge(store, ['App', 'uses', 'PostgreSQL'])
    await seedEdge(store, ['worker', 'uses', 'PostgreSQL'])
    await seedEdge(store, ['api', 'uses', 'Redis (cache)'], {}, 'w2')
    const chunk = await addChunk(store, 'w1', 'text')
    await builderOf(store)
      .insertInto('entity_mentions')
      .values({ workspace_id: 'w1', chunk_id: chunk, entity: 'PostgreSQL' })
      .execute()
    await builderOf(store)
      .insertInto('entity_types')
      .values({ workspace_id: 'w1', entity: '???', type: 'database', updated_at: T })
      .execute()
    await builderOf(store)
      .insertInto('entity_aliases')
      .values({ workspace_id: 'w1', surface: 'Postgres DB', canonical: 'postgresql', created_at: T })
      .execute()
    expect(await findCanonicalDrift(store)).toEqual([
      {
        workspaceId: 'w1',
        column: 'entity_aliases.surface',
        value: 'Postgres DB',
        normalized: 'postgres_db',
        rows: 1,
      },
      { workspaceId: 'w1', column: 'knowledge_graph.subject', value: 'App', normalized: 'app', rows: 1 },
      {
        workspaceId: 'w1',
        column: 'knowledge_graph.object',
        value: 'PostgreSQL',
        normalized: 'postgresql',
        rows: 2,
      },
      {
        workspaceId: 'w2',
        column: 'knowledge_graph.object',
        value: 'Redis (cache)',
        normalized: 'redis',
        rows: 1,
      },
      {
        workspaceId: 'w1',
        column: 'entity_mentions.entity',
        value: 'PostgreSQL',
        normalized: 'postgresql',
        rows: 1,
      },
      { workspaceId: 'w1', column: 'entity_types.entity', value: '???', normalized: '', rows: 1 },
    ])
    expect((await findCanonicalDrift(store, { workspaceId: 'w2' })).map((d) => d.value)).toEqual([
      'Redis (cache)',
    ])
  })

  it('repairs with merge semantics: drifted duplicates collapse and their evidence sums', async () => {
    const store = stores.open()
    await seedEdge(store, ['app', 'uses', 'postgresql'], { pos_evidence: 3 })
    await seedEdge(store, ['app', 'uses', 'PostgreSQL'], { pos_evidence: 1, neg_evidence: 1 })
    await seedEdge(store, ['app', 'uses', 'Postgresql '], { pos_evidence: 2 })
    await seedEdge(store, ['App', 'deploys_to', 'AWS']) // no collision: renamed in place
    const repair = await repairCanonicalDrift(store)
    expect(repair.merges.map((m) => [m.from, m.to, m.edgesMerged, m.edgesRenamed])).toEqual([
      ['App', 'app', 0, 1],
      ['AWS', 'aws', 0, 1],
      ['PostgreSQL', 'postgresql', 1, 0],
      ['Postgresql ', 'postgresql', 1, 0],
    ])
    expect(
      (await edgesOf(store)).map(({ triple, pos, neg, confidence }) => ({ triple, pos, neg, confidence })),
    ).toEqual([
      { triple: 'app deploys_to aws', pos: 0, neg: 0, confidence: 0.5 },
      { triple: 'app uses postgresql', pos: 6, neg: 1, confidence: 7 / 9 },
    ])
    expect(await findCanonicalDrift(store)).toEqual([])
    expect(await repairCanonicalDrift(store)).toEqual({ merges: [], aliasSurfacesFixed: 0, skipped: [] })
  })

  it('sends a drifted name to the canonical its normalized form is an alias of', async () => {
    const store = stores.open()
    await builderOf(store)
      .insertInto('entity_aliases')
      .values({ workspace_id: 'w1', surface: 'postgres', canonical: 'postgresql', created_at: T })
      .execute()
    await seedEdge(store, ['app', 'uses', 'Postgres'])
    await repairCanonicalDrift(store)
    expect((await edgesOf(store)).map((e) => e.triple)).toEqual(['app uses postgresql'])
  })

  it('fixes drifted alias rows: canonicals are merged, surfaces renamed or dropped when taken', async () => {
    const store = stores.open()
    await builderOf(store)
      .insertInto('entity_aliases')
      .values([
        { workspace_id: 'w1', surface: 'pg', canonical: 'PostgreSQL', created_at: T },
        { workspace_id: 'w1', surface: 'Mongo', canonical: 'mongodb', created_at: T },
        { workspace_id: 'w1', surface: 'My SQL', canonical: 'mysql', created_at: T },
        { workspace_id: 'w1', surface: 'my_sql', canonical: 'mariadb', created_at: T },
      ])
      .execute()
    const repair = await repairCanonicalDrift(store)
    expect(repair.aliasSurfacesFixed).toBe(2)
    expect(await aliasesOf(store)).toEqual(['mongo → mongodb', 'my_sql → mariadb', 'pg → postgresql'])
    expect(await findCanonicalDrift(store)).toEqual([])
  })

  it('leaves names with nothing usable to the operator and reports them', async () => {
    const store = stores.open()
    await seedEdge(store, ['app', 'uses', '!!!'])
    const repair = await repairCanonicalDrift(store)
    expect(repair.skipped).toEqual([
      { workspaceId: 'w1', column: 'knowledge_graph.object', value: '!!!', normalized: '', rows: 1 },
    ])
    expect((await edgesOf(store)).map((e) => e.triple)).toEqual(['app uses !!!'])
  })

  it('repairs one workspace only when asked', async () => {
    const store = stores.open()
    await seedEdge(store, ['App', 'uses', 'x'])
    await seedEdge(store, ['App', 'uses', 'x'], {}, 'w2')
    await repairCanonicalDrift(store, { workspaceId: 'w2' })
    expect((await edgesOf(store)).map((e) => e.triple)).toEqual(['App uses x'])
    expect((await edgesOf(store, 'w2')).map((e) => e.triple)).toEqual(['app uses x'])
  })
})
