import { type Kysely, sql } from 'kysely'
import type { HyMemDatabase } from '../../kernel/tables'
import { _createRepositoryScope } from '../../repositories/scope'
import type { StoreEngine } from '../types'
import { POSTGRES_FILTER_DIALECT } from './filter-dialect'
import { buildTsquery } from './tsquery'
import { createPostgresVectorIndex } from './vector-index'

/** The tables whose dead rows a purge of each receipt kind leaves behind. */
const TABLES_OF_KIND: readonly (readonly [string, string])[] = [
  ['messages', 'messages'],
  ['chunks', 'chunks'],
  ['episodes', 'episodes'],
  ['procedures', 'procedures'],
  ['notes', 'notes'],
]

/**
 * PostgreSQL under the portable repositories: writes run in a kysely transaction (or join the caller's),
 * reads run directly; `seq` is the insertion order; read-merge-writes lock their rows; lists are arrays.
 */
const engine: StoreEngine = {
  name: 'postgres',
  insertionOrder: sql<number>`seq`,
  insertionOrderOf: (table) => sql.ref(`${table}.seq`),
  rowLocks: true,
  guards: (db, options) => ({
    write: async (fn) => (options.inTransaction ? fn(db) : db.transaction().execute(async (tx) => fn(tx))),
    read: async (fn) => fn(),
  }),
  filter: POSTGRES_FILTER_DIALECT,
  // The planner needs no hint (and PostgreSQL has no unary plus on text): the plain column.
  notIndexed: (column) => sql<string>`${sql.ref(column)}`,
  inIdList: (column, ids) => sql<boolean>`${sql.ref(column)} = ANY(${[...ids]})`,
  textRows: (values) => sql`SELECT unnest(CAST(${[...values]} AS text[])) AS value`,
  pairRows: (pairs) =>
    sql`SELECT unnest(CAST(${pairs.map(([a]) => a)} AS text[])) AS a, unnest(CAST(${pairs.map(([, b]) => b)} AS text[])) AS b`,
  // No `CROSS JOIN … ON` here; the planner picks the order itself.
  orderedJoin: () => sql`JOIN`,
  noLimit: () => sql`LIMIT ALL`,
  jsonFlag: (column, key) => sql`(CASE WHEN ${column}->>${sql.lit(key)} IN ('true', '1') THEN 1
      WHEN ${column}->>${sql.lit(key)} IN ('false', '0') THEN 0 END)`,
  jsonObject: (entries) =>
    sql`jsonb_build_object(${sql.join(entries.map(([key, value]) => sql`${sql.lit(key)}, ${value}`))})`,
  evidenceMessages: sql`FROM kg_evidence e CROSS JOIN LATERAL jsonb_array_elements_text(e.message_ids) AS j(value)
      JOIN messages m ON m.id = CAST(j.value AS bigint)`,
  processedChunksHaveWorkspace: true,
  fullTextHolds,
  vectorsIn: (executor, context) =>
    createPostgresVectorIndex(
      executor,
      context,
      _createRepositoryScope(executor, context, { engine: POSTGRES_ENGINE, inTransaction: true }),
    ),
  // pgvector keeps vectors in the workspace's own rows: deleting the rows removes them.
  removeWorkspaceVectors: () => {},
  /**
   * A `VACUUM` of the tables the purge removed rows from (their tsvector columns and GIN entries go with the
   * rows). PostgreSQL keeps a deleted row's bytes until VACUUM reuses its space, and in the write-ahead log
   * until the next checkpoint recycles it; HyMem cannot force either on a shared server, so "done" means
   * vacuumed, not overwritten.
   */
  compact: async (scope, removed, everything) => {
    const tables = TABLES_OF_KIND.filter(([kind]) => everything || (removed[kind] ?? 0) > 0).map(
      ([, table]) => table,
    )
    if (tables.length > 0)
      await sql`VACUUM ${sql.join(tables.map((table) => sql.table(table)))}`.execute(scope.db)
    return { optimized: tables, checkpointed: true }
  },
}
export const POSTGRES_ENGINE: StoreEngine = Object.freeze(engine)

async function fullTextHolds(db: Kysely<HyMemDatabase>, workspaceId: string, word: string): Promise<boolean> {
  const query = buildTsquery(word, { mode: 'and' })
  if (query === null) return false
  const { rows } = await sql<{ found: number }>`
    SELECT 1 AS found FROM messages
    WHERE workspace_id = ${workspaceId} AND fts @@ to_tsquery('hymem_english', ${query})
    UNION ALL
    SELECT 1 FROM notes WHERE workspace_id = ${workspaceId} AND fts @@ to_tsquery('hymem_english', ${query})
    LIMIT 1`.execute(db)
  return rows.length > 0
}
