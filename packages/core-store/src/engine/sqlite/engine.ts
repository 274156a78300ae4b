import { type Kysely, sql } from 'kysely'
import type { HyMemDatabase } from '../../kernel/tables'
import { buildMatchQuery } from '../../text/match-query'
import type { RepositoryOptions, RepositoryScope, StatementCache, StoreEngine } from '../types'
import { compactSqlite } from './compact'
import { SQLITE_FILTER_DIALECT } from './filter-dialect'
import { _removeWorkspaceVectors, createVectorIndex } from './vector-index'

/**
 * SQLite under the portable repositories: raw cached statements on the held connection, `BEGIN IMMEDIATE`
 * writes, `json_each` lists, planner hints, FTS5 and vec0. One per store, over that store's statement cache.
 */
export function createSqliteEngine(statements: StatementCache): StoreEngine {
  const engine: StoreEngine = {
    name: 'sqlite',
    insertionOrder: sql<number>`rowid`,
    insertionOrderOf: (table) => sql.ref(`${table}.rowid`),
    rowLocks: false,
    guards: (db, options) => sqliteGuards(db, statements, options),
    filter: SQLITE_FILTER_DIALECT,
    notIndexed: (column) => sql<string>`+${sql.ref(column)}`,
    inIdList: (column, ids) =>
      sql<boolean>`${sql.ref(column)} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
    textRows: (values) => sql`SELECT value FROM json_each(${JSON.stringify(values)})`,
    pairRows: (pairs) =>
      sql`SELECT json_extract(value, '$.a') AS a, json_extract(value, '$.b') AS b FROM json_each(${JSON.stringify(pairs.map(([a, b]) => ({ a, b })))})`,
    // `CROSS JOIN … ON` joins in the written order: the short list drives, one index seek per entry.
    orderedJoin: () => sql`CROSS JOIN`,
    noLimit: () => sql`LIMIT -1`,
    jsonFlag: (column, key) => sql`json_extract(${column}, ${sql.lit(`$.${key}`)})`,
    jsonObject: (entries) =>
      sql`json_object(${sql.join(entries.map(([key, value]) => sql`${sql.lit(key)}, ${value}`))})`,
    evidenceMessages: sql`FROM kg_evidence e, json_each(e.message_ids) j
      JOIN messages m ON m.id = j.value`,
    processedChunksHaveWorkspace: false,
    fullTextHolds: fullTextHolds,
    vectorsIn: (executor, context) =>
      createVectorIndex(executor, context, { engine, inTransaction: true }, statements),
    removeWorkspaceVectors: (context, workspaceId) =>
      _removeWorkspaceVectors(statements, context, workspaceId),
    compact: (scope, removed, everything) => compactSqlite(statements, scope, removed, everything),
  }
  return Object.freeze(engine)
}

/** SQLite: `BEGIN IMMEDIATE` on the held connection, so raw cached statements join the transaction. */
function sqliteGuards(
  db: Kysely<HyMemDatabase>,
  statements: StatementCache,
  options: RepositoryOptions,
): Pick<RepositoryScope, 'write' | 'read'> {
  const { inTransaction, writeTurn } = options
  return {
    write: async (fn) => {
      if (inTransaction) return fn(db)
      // The write turn comes before the connection: while it waits, this thread's reads keep the connection.
      const release = writeTurn ? await writeTurn() : undefined
      try {
        return await db.connection().execute(async (connection) => {
          // The connection is held, so the cached raw statements cannot interleave with another caller.
          statements.prepare('BEGIN IMMEDIATE').run()
          try {
            const result = await fn(connection)
            statements.prepare('COMMIT').run()
            return result
          } catch (error) {
            if (statements.inTransaction) statements.prepare('ROLLBACK').run()
            throw error
          }
        })
      } finally {
        release?.()
      }
    },
    read: async (fn) => {
      // Outside any transaction a synchronous read cannot interleave with anyone: skip the connection queue.
      if (inTransaction || !statements.inTransaction) return fn()
      return db.connection().execute(async () => fn())
    },
  }
}

async function fullTextHolds(db: Kysely<HyMemDatabase>, workspaceId: string, word: string): Promise<boolean> {
  const match = buildMatchQuery(word, { mode: 'and' })
  if (match === null) return false
  const { rows } = await sql<{ found: number }>`
    SELECT 1 AS found FROM messages_fts f JOIN messages m ON m.id = f.rowid
    WHERE messages_fts MATCH ${match} AND m.workspace_id = ${workspaceId}
    UNION ALL
    SELECT 1 FROM notes_fts f JOIN notes n ON n.rowid = f.rowid
    WHERE notes_fts MATCH ${match} AND n.workspace_id = ${workspaceId}
    LIMIT 1`.execute(db)
  return rows.length > 0
}
