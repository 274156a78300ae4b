import { describe, expect, it } from 'vitest'
import { databaseAtVersion } from '../../../../test/database-at-version'
import { useTempStores } from '../../../../test/store-harness'
import { builderOf } from '../../../store/builder'
import { openStore } from '../open-store'
import { SCHEMA_VERSION } from './migrations'

/** A database file as HyMem left it at schema version 3, with one fact and its evidence. */
function writeVersion3(path: string): void {
  const raw = databaseAtVersion(path, 3)
  raw.exec(`
    INSERT INTO workspaces (id, created_at) VALUES ('w', '2026-01-01T00:00:00.000Z');
    INSERT INTO knowledge_graph (workspace_id, subject, predicate, object, first_seen, last_seen, last_reinforced, valid_from)
      VALUES ('w', 'api', 'uses', 'postgres', '2026-01-05T00:00:00.000Z', '2026-01-05T00:00:00.000Z',
              '2026-01-05T00:00:00.000Z', '2026-01-05T00:00:00.000Z'),
             ('w', 'api', 'uses', 'redis', '2026-01-06T00:00:00.000Z', '2026-01-06T00:00:00.000Z',
              '2026-01-06T00:00:00.000Z', '2026-01-06T00:00:00.000Z');
    INSERT INTO kg_evidence (workspace_id, edge_id, polarity, observed_at, created_at)
      VALUES ('w', 1, 1, '2026-01-05T00:00:00.000Z', '2026-02-01T00:00:00.000Z'),
             ('w', 1, 1, '2026-01-07T00:00:00.000Z', '2026-02-03T00:00:00.000Z');
  `)
  raw.close()
}

describe('migration 4: purges and the learned-at clock', () => {
  const stores = useTempStores()

  it('backfills learned_at from the first supporting evidence (first_seen without any) and keeps it set', async () => {
    const path = stores.file('v3.sqlite')
    writeVersion3(path)
    const store = stores.track(openStore({ path }))
    expect(store.info().schemaVersion).toBe(SCHEMA_VERSION)
    const learned = () =>
      builderOf(store).selectFrom('knowledge_graph').select(['object', 'learned_at']).orderBy('id').execute()
    expect(await learned()).toEqual([
      { object: 'postgres', learned_at: '2026-02-01T00:00:00.000Z' },
      { object: 'redis', learned_at: '2026-01-06T00:00:00.000Z' },
    ])
    const edge = await store.edges.insert('w', { subject: 'api', predicate: 'uses', object: 'kafka' })
    await store.evidence.add('w', { edgeId: edge.id, polarity: -1, createdAt: '2026-03-01T00:00:00.000Z' })
    await store.evidence.add('w', { edgeId: edge.id, createdAt: '2026-03-02T00:00:00.000Z' })
    await store.evidence.add('w', { edgeId: edge.id, createdAt: '2026-03-03T00:00:00.000Z' })
    expect((await learned()).at(-1)).toEqual({ object: 'kafka', learned_at: '2026-03-02T00:00:00.000Z' })
    expect(await store.purges.unfinished()).toEqual([])
  })
})
