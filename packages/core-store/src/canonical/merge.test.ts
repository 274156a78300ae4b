import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { aliasesOf, edgesOf, seedEdge, seedEvidence } from '../../test/canonical-seed'
import { addChunk } from '../../test/fixtures'
import { expectStoreError, useTempStores } from '../../test/store-harness'
import { edgeConfidence } from '../repositories/edge-confidence'
import { builderOf } from '../store/builder'
import { addAlias } from './aliases'
import { mergeCanonical } from './merge'

describe('mergeCanonical', () => {
  const stores = useTempStores()

  it('renames every edge end in place when nothing collides, and records the alias', async () => {
    const store = stores.open()
    await seedEdge(store, ['postgres', 'runs_on', 'linux'], { pos_evidence: 2 })
    await seedEdge(store, ['api', 'depends_on', 'postgres'])
    await seedEdge(store, ['postgres', 'replaces', 'postgres'])
    const report = await mergeCanonical(store, { workspaceId: 'w1', from: 'postgres', to: 'PostgreSQL' })
    expect(report).toMatchObject({ from: 'postgres', to: 'postgresql', edgesRenamed: 3, edgesMerged: 0 })
    expect(await store.graphGenerations.current('w1')).toBe(1)
    expect((await edgesOf(store)).map((e) => e.triple)).toEqual([
      'api depends_on postgresql',
      'postgresql replaces postgresql',
      'postgresql runs_on linux',
    ])
    expect(await aliasesOf(store)).toEqual(['postgres → postgresql'])
  })

  it('folds a colliding edge into the survivor: counters summed, evidence re-pointed, confidence recomputed', async () => {
    const store = stores.open()
    const folded = await seedEdge(store, ['app', 'uses', 'postgres'], {
      pos_evidence: 2,
      neg_evidence: 1,
      status: 'stale',
      first_seen: '2026-01-01T00:00:00.000Z',
      last_seen: '2026-02-01T00:00:00.000Z',
      last_reinforced: '2026-02-01T00:00:00.000Z',
      valid_from: '2026-01-01T00:00:00.000Z',
    })
    const survivor = await seedEdge(store, ['app', 'uses', 'postgresql'], {
      pos_evidence: 3,
      status: 'active',
      first_seen: '2026-01-15T00:00:00.000Z',
      last_seen: '2026-01-20T00:00:00.000Z',
      last_reinforced: '2026-03-01T00:00:00.000Z',
      valid_from: '2026-01-15T00:00:00.000Z',
      valid_to: '2026-04-01T00:00:00.000Z',
    })
    const moved = [await seedEvidence(store, folded, null, 1), await seedEvidence(store, folded, null, -1)]
    await seedEvidence(store, survivor, null, 1)
    const report = await mergeCanonical(store, { workspaceId: 'w1', from: 'postgres', to: 'postgresql' })
    expect(report).toMatchObject({
      edgesRenamed: 0,
      edgesMerged: 1,
      evidenceMoved: 2,
      evidenceDeduplicated: 0,
    })
    const edge = await builderOf(store).selectFrom('knowledge_graph').selectAll().executeTakeFirstOrThrow()
    expect(edge).toMatchObject({
      id: survivor,
      subject: 'app',
      object: 'postgresql',
      pos_evidence: 5,
      neg_evidence: 1,
      confidence: 0.75,
      status: 'active',
      first_seen: '2026-01-01T00:00:00.000Z',
      last_seen: '2026-02-01T00:00:00.000Z',
      last_reinforced: '2026-03-01T00:00:00.000Z',
      valid_from: '2026-01-01T00:00:00.000Z',
      valid_to: null,
    })
    const evidence = await builderOf(store)
      .selectFrom('kg_evidence')
      .select(['id', 'edge_id'])
      .orderBy('id')
      .execute()
    expect(evidence.filter((e) => moved.includes(e.id)).map((e) => e.edge_id)).toEqual([survivor, survivor])
    expect(evidence).toHaveLength(3)
  })

  it('counts evidence from a chunk both edges cite once', async () => {
    const store = stores.open()
    const chunk = await addChunk(store, 'w1', 'we run Postgres (PostgreSQL) in prod')
    const other = await addChunk(store, 'w1', 'postgres again')
    const folded = await seedEdge(store, ['app', 'uses', 'postgres'], { pos_evidence: 2 })
    const survivor = await seedEdge(store, ['app', 'uses', 'postgresql'], { pos_evidence: 1 })
    await seedEvidence(store, folded, chunk, 1)
    await seedEvidence(store, folded, other, 1)
    await seedEvidence(store, survivor, chunk, 1)
    const report = await mergeCanonical(store, { workspaceId: 'w1', from: 'postgres', to: 'postgresql' })
    expect(report).toMatchObject({ evidenceMoved: 1, evidenceDeduplicated: 1 })
    expect(await edgesOf(store)).toEqual([
      {
        triple: 'app uses postgresql',
        pos: 2,
        neg: 0,
        confidence: edgeConfidence(2, 0),
        status: 'active',
        id: survivor,
      },
    ])
    const rows = await builderOf(store)
      .selectFrom('kg_evidence')
      .select(['edge_id', 'chunk_id'])
      .orderBy('chunk_id')
      .execute()
    expect(rows).toEqual([
      { edge_id: survivor, chunk_id: chunk },
      { edge_id: survivor, chunk_id: other },
    ])
  })

  it('keeps derived and direct edges apart and re-points supersede links to the survivor', async () => {
    const store = stores.open()
    const survivor = await seedEdge(store, ['app', 'uses', 'postgresql'])
    const folded = await seedEdge(store, ['app', 'uses', 'postgres'])
    const older = await seedEdge(store, ['app', 'uses', 'mysql'], { superseded_by: folded })
    await seedEdge(store, ['app', 'depends_on', 'postgres'], { derived: 1 })
    await seedEdge(store, ['app', 'depends_on', 'postgresql'], { derived: 0 })
    await mergeCanonical(store, { workspaceId: 'w1', from: 'postgres', to: 'postgresql' })
    expect((await edgesOf(store)).map((e) => e.triple)).toEqual([
      'app depends_on postgresql',
      'app depends_on postgresql (derived)',
      'app uses mysql',
      'app uses postgresql',
    ])
    const link = await builderOf(store)
      .selectFrom('knowledge_graph')
      .select('superseded_by')
      .where('id', '=', older)
      .executeTakeFirst()
    expect(link?.superseded_by).toBe(survivor)
  })

  it('rewrites mentions, entity types, aliases, episode and procedure entities and feedback', async () => {
    const store = stores.open()
    const both = await addChunk(store, 'w1', 'postgres and postgresql')
    const one = await addChunk(store, 'w1', 'just postgres')
    const T = '2026-03-01T10:00:00.000Z'
    await builderOf(store)
      .insertInto('entity_mentions')
      .values([
        { workspace_id: 'w1', chunk_id: both, entity: 'postgres' },
        { workspace_id: 'w1', chunk_id: both, entity: 'postgresql' },
        { workspace_id: 'w1', chunk_id: one, entity: 'postgres' },
      ])
      .execute()
    await builderOf(store)
      .insertInto('entity_types')
      .values([
        { workspace_id: 'w1', entity: 'postgres', type: 'database', evidence: 2, updated_at: T },
        { workspace_id: 'w1', entity: 'postgresql', type: 'database', evidence: 3, updated_at: T },
        { workspace_id: 'w1', entity: 'pgvector', type: 'tool', evidence: 1, updated_at: T },
        { workspace_id: 'w1', entity: 'pg_vector', type: 'extension', evidence: 4, updated_at: T },
      ])
      .execute()
    await addAlias(store, { workspaceId: 'w1', surface: 'pg', canonical: 'postgres' })
    await store.sessions.getOrCreate('w1', 's')
    const common = { workspace_id: 'w1', session_id: 's', created_at: T, updated_at: T }
    await builderOf(store)
      .insertInto('episodes')
      .values([
        {
          ...common,
          id: 'e1',
          title: 't',
          summary: 's',
          entities: '["postgres","postgresql","redis"]',
          started_at: T,
          ended_at: T,
        },
        { ...common, id: 'e2', title: 't', summary: 's', entities: 'not json', started_at: T, ended_at: T },
      ])
      .execute()
    await builderOf(store)
      .insertInto('procedures')
      .values({ ...common, id: 'p1', name: 'n', description: 'd', entities: '["postgres"]' })
      .execute()
    await builderOf(store)
      .insertInto('extraction_feedback')
      .values({
        workspace_id: 'w1',
        subject: 'postgres',
        predicate: 'uses',
        object: 'postgres',
        created_at: T,
      })
      .execute()

    const report = await mergeCanonical(store, { workspaceId: 'w1', from: 'postgres', to: 'postgresql' })
    await mergeCanonical(store, { workspaceId: 'w1', from: 'pgvector', to: 'pg_vector' })

    expect(report).toMatchObject({ mentionsRewritten: 2, typesRewritten: 1, otherRowsRewritten: 4 })
    const mentions = await builderOf(store)
      .selectFrom('entity_mentions')
      .select(['chunk_id', 'entity'])
      .orderBy('chunk_id')
      .execute()
    expect(mentions).toEqual([
      { chunk_id: both, entity: 'postgresql' },
      { chunk_id: one, entity: 'postgresql' },
    ])
    const types = await builderOf(store)
      .selectFrom('entity_types')
      .select(['entity', 'type', 'evidence'])
      .orderBy('entity')
      .execute()
    expect(types).toEqual([
      { entity: 'pg_vector', type: 'extension', evidence: 4 },
      { entity: 'postgresql', type: 'database', evidence: 5 },
    ])
    expect(await aliasesOf(store)).toEqual([
      'pg → postgresql',
      'pgvector → pg_vector',
      'postgres → postgresql',
    ])
    const episodes = await builderOf(store)
      .selectFrom('episodes')
      .select(['id', 'entities'])
      .orderBy('id')
      .execute()
    expect(episodes).toEqual([
      { id: 'e1', entities: '["postgresql","redis"]' },
      { id: 'e2', entities: 'not json' },
    ])
    const procedure = await builderOf(store)
      .selectFrom('procedures')
      .select('entities')
      .executeTakeFirstOrThrow()
    expect(procedure.entities).toBe('["postgresql"]')
    const feedback = await builderOf(store)
      .selectFrom('extraction_feedback')
      .select(['subject', 'object'])
      .executeTakeFirstOrThrow()
    expect(feedback).toEqual({ subject: 'postgresql', object: 'postgresql' })
  })

  it('merges into the canonical an alias names, and leaves other workspaces alone', async () => {
    const store = stores.open()
    await addAlias(store, { workspaceId: 'w1', surface: 'pg', canonical: 'postgresql' })
    await seedEdge(store, ['app', 'uses', 'psql'])
    await seedEdge(store, ['app', 'uses', 'psql'], {}, 'w2')
    const report = await mergeCanonical(store, { workspaceId: 'w1', from: 'psql', to: 'PG' })
    expect(report.to).toBe('postgresql')
    expect((await edgesOf(store)).map((e) => e.triple)).toEqual(['app uses postgresql'])
    expect((await edgesOf(store, 'w2')).map((e) => e.triple)).toEqual(['app uses psql'])
  })

  it('removes the folded edge from the edge vector index', async () => {
    const store = stores.open()
    const survivor = await seedEdge(store, ['app', 'uses', 'postgresql'])
    const folded = await seedEdge(store, ['app', 'uses', 'postgres'])
    const vector = (x: number) => new Float32Array([x, 1, 0, 0])
    await store.vectors.upsert(
      'edges',
      [
        { id: survivor, workspaceId: 'w1', vector: vector(1), textHash: 'a' },
        { id: folded, workspaceId: 'w1', vector: vector(0.9), textHash: 'b' },
      ],
      'model',
    )
    await mergeCanonical(store, { workspaceId: 'w1', from: 'postgres', to: 'postgresql' })
    const hits = await store.vectors.nearest('edges', vector(1), { workspaceId: 'w1', k: 10, model: 'model' })
    expect(hits.map((h) => h.id)).toEqual([survivor])
  })

  it('is all-or-nothing: a failure half-way leaves the database as it was', async () => {
    const store = stores.open()
    await seedEdge(store, ['postgres', 'runs_on', 'linux'])
    await seedEdge(store, ['app', 'uses', 'postgres'])
    await seedEdge(store, ['app', 'uses', 'postgresql'])
    const before = await edgesOf(store)
    await sql`CREATE TRIGGER refuse_delete BEFORE DELETE ON knowledge_graph BEGIN SELECT RAISE(ABORT, 'refused'); END`.execute(
      builderOf(store),
    )
    await expect(
      mergeCanonical(store, { workspaceId: 'w1', from: 'postgres', to: 'postgresql' }),
    ).rejects.toThrow('refused')
    expect(await edgesOf(store)).toEqual(before)
    expect(await aliasesOf(store)).toEqual([])
  })

  it('does nothing when both names are the same entity, and rejects unusable input', async () => {
    const store = stores.open()
    await seedEdge(store, ['app', 'uses', 'postgresql'])
    expect(
      await mergeCanonical(store, { workspaceId: 'w1', from: 'postgresql', to: 'PostgreSQL' }),
    ).toMatchObject({
      edgesRenamed: 0,
      edgesMerged: 0,
      aliasesRewritten: 0,
    })
    const error = await expectStoreError(
      mergeCanonical(store, { workspaceId: 'w1', from: 'x', to: '()' }),
      'INVALID_INPUT',
    )
    expect(error.message).toMatchInlineSnapshot(`"Cannot merge into "()": it has no letters or digits."`)
    await expectStoreError(mergeCanonical(store, { workspaceId: 'w1', from: '', to: 'x' }), 'INVALID_INPUT')
    await expectStoreError(mergeCanonical(store, { workspaceId: '', from: 'a', to: 'b' }), 'INVALID_INPUT')
  })
})
