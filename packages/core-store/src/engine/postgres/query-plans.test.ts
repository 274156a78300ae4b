import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { addChunk, vec } from '../../../test/fixtures'
import { postgresBackends } from '../../../test/postgres-backends'
import { builderOf } from '../../store/builder'

const planOf = (rows: { 'QUERY PLAN': string }[]) => rows.map((row) => row['QUERY PLAN']).join('\n')

for (const backend of postgresBackends()) {
  describe(`PostgreSQL query plans: ${backend.label}`, () => {
    const stores = backend.use()

    it('nearest-neighbour queries order by the HNSW index expression of the pinned dimension', async () => {
      const store = await stores.open()
      const id = await addChunk(store, 'w', 'hello world')
      await store.vectors.upsert(
        'chunks',
        [{ id, workspaceId: 'w', vector: vec(1, 0, 0), textHash: 'h' }],
        'm',
      )
      const plan = await store.transaction(async (tx) => {
        // Tiny tables are cheaper to scan; forbid that to see whether the index can answer at all.
        await sql`SET LOCAL enable_seqscan = off`.execute(builderOf(tx))
        await sql`SET LOCAL enable_bitmapscan = off`.execute(builderOf(tx))
        await sql`SET LOCAL enable_sort = off`.execute(builderOf(tx))
        const result = await sql<{ 'QUERY PLAN': string }>`EXPLAIN
          SELECT chunk_id AS id, (vector::vector(3) <=> ${'[1,0,0]'}::vector(3)) AS distance
          FROM chunk_embeddings WHERE workspace_id = ${'w'} ORDER BY distance LIMIT 5`.execute(builderOf(tx))
        return planOf(result.rows)
      })
      expect(plan).toContain('Index Scan using chunk_embeddings_hnsw')
    })

    it('full-text matches can be answered by the GIN index of the generated tsvector', async () => {
      const store = await stores.open()
      await store.messages.insertBatch(
        'w',
        's',
        Array.from({ length: 20 }, (_, i) => ({ peerId: 'u', content: `filler message number ${i}` })),
      )
      await store.messages.insertBatch('w', 's', [{ peerId: 'u', content: 'the rare word zanzibar' }])
      const plan = await store.transaction(async (tx) => {
        await sql`ANALYZE messages`.execute(builderOf(tx))
        await sql`SET LOCAL enable_seqscan = off`.execute(builderOf(tx))
        const result = await sql<{ 'QUERY PLAN': string }>`EXPLAIN
          SELECT c.id, ts_rank(c.fts, q, 1) FROM messages AS c, to_tsquery('hymem_english', ${"'zanzibar'"}) AS q
          WHERE c.fts @@ q`.execute(builderOf(tx))
        return planOf(result.rows)
      })
      expect(plan).toContain('messages_fts')
    })
  })
}
