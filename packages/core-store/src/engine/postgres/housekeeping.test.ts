import { describe, expect, it } from 'vitest'
import { postgresBackends } from '../../../test/postgres-backends'
import { PURGE_T0, seedPurgeMemory } from '../../../test/purge-seed'

/**
 * SQLite's housekeeping after a purge (FTS5 `optimize`, a truncating WAL checkpoint) has no PostgreSQL
 * counterpart to call: tsvector columns and GIN entries go with their rows. Compaction there is a VACUUM of
 * the tables the purge removed rows from, reported in `optimized`.
 */
for (const backend of postgresBackends()) {
  describe(`purge compaction on ${backend.label}`, () => {
    const stores = backend.use()

    it('vacuums the tables the purge removed rows from, and reports them', async () => {
      const store = await stores.open({ clock: () => new Date(PURGE_T0) })
      await seedPurgeMemory(store)
      const { id } = await store.purges.request('w', { kind: 'session', sessionId: 'trip' })
      await store.purges.removeRows('w', id)
      const compaction = await store.purges.compact('w', id)
      expect(compaction).toMatchObject({
        optimized: ['messages', 'chunks', 'episodes', 'procedures', 'notes'],
        checkpointed: true,
        purge: { status: 'done', finishedAt: PURGE_T0 },
      })
    })
  })
}
