import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { useTempStores } from '../../../test/store-harness'
import { builderOf } from '../../store/builder'

describe('full-text scores on SQLite', () => {
  const stores = useTempStores()

  it('are -bm25 divided by the best hit’s, so their ratios are BM25’s', async () => {
    const store = stores.open()
    await store.messages.insertBatch('w', 's', [
      { peerId: 'u', content: 'postgres postgres replica' },
      { peerId: 'u', content: 'the reporting job might move to postgres after the migration' },
    ])
    const hits = await store.fullText.search('messages', 'postgres', { workspaceId: 'w', limit: 10 })
    const { rows } = await sql<{ id: number; rank: number }>`
      SELECT rowid AS id, -bm25(messages_fts) AS rank FROM messages_fts WHERE messages_fts MATCH 'postgres'
      ORDER BY bm25(messages_fts)`.execute(builderOf(store))
    expect(hits.map((hit) => hit.id)).toEqual(rows.map((row) => row.id))
    expect(hits[1]!.score).toBeCloseTo(rows[1]!.rank / rows[0]!.rank, 12)
  })
})
