import { sql } from 'kysely'
import type { PurgesRepository } from '../../../repositories/purges'
import { createPurgesRepository } from '../../../repositories/purges'
import { _createRepositoryScope, type RepositoryScope } from '../../../repositories/scope'
import { createPostgresVectorIndex } from '../vector-index'

/** The tables whose dead rows a purge of each receipt kind leaves behind. */
const TABLES_OF_KIND: readonly (readonly [string, string])[] = [
  ['messages', 'messages'],
  ['chunks', 'chunks'],
  ['episodes', 'episodes'],
  ['procedures', 'procedures'],
  ['notes', 'notes'],
]

/**
 * Purges on PostgreSQL: the cascade runs with the pgvector index, and compaction is a `VACUUM` of the tables
 * the purge removed rows from (their tsvector columns and GIN entries go with the rows). PostgreSQL keeps a
 * deleted row's bytes until VACUUM reuses its space, and in the write-ahead log until the next checkpoint
 * recycles it; HyMem cannot force either on a shared server, so "done" means vacuumed, not overwritten.
 */
export function postgresPurges(scope: RepositoryScope): PurgesRepository {
  return createPurgesRepository(scope, {
    vectorsIn: (executor) => {
      const inner = _createRepositoryScope(executor, scope.context, {
        statements: scope.statements,
        inTransaction: true,
        backend: scope.backend,
      })
      return createPostgresVectorIndex(executor, scope.context, inner)
    },
    compact: async (compacting, removed, everything) => {
      const tables = TABLES_OF_KIND.filter(([kind]) => everything || (removed[kind] ?? 0) > 0).map(
        ([, table]) => table,
      )
      if (tables.length > 0)
        await sql`VACUUM ${sql.join(tables.map((table) => sql.table(table)))}`.execute(compacting.db)
      return { optimized: tables, checkpointed: true }
    },
  })
}
