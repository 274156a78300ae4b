import type Database from 'better-sqlite3'
import type { SqliteDatabase, SqliteStatement } from 'kysely'
import { createLruMap } from '../../kernel/lru-map'
import { storeClosedError } from '../closable-dialect'
import type { StatementCache } from '../types'

/**
 * Prepared statements reused by SQL text, shared by kysely and the repositories' hot paths (batched
 * inserts, vector writes). Cached statements are shared: never switch them to `pluck()`/`raw()` mode.
 */
export function createStatementCache(sqlite: Database.Database, capacity = 256): StatementCache {
  const cache = createLruMap<string, Database.Statement>(capacity)
  return {
    get inTransaction() {
      return sqlite.inTransaction
    },
    prepare(sql: string): Database.Statement {
      if (!sqlite.open) throw storeClosedError(sqlite.name)
      const cached = cache.get(sql)
      if (cached) return cached
      const statement = sqlite.prepare(sql)
      cache.set(sql, statement)
      return statement
    },
  }
}

/**
 * Adapts a better-sqlite3 connection for kysely's SqliteDialect, reusing prepared statements by SQL text.
 * kysely prepares every query anew; on hot paths (batched inserts, FTS lookups) re-preparing costs more
 * than running the statement.
 */
export function cachingDatabase(
  sqlite: Database.Database,
  statements: StatementCache = createStatementCache(sqlite),
): SqliteDatabase {
  return {
    close: () => sqlite.close(),
    prepare: (sql: string): SqliteStatement => statements.prepare(sql) as unknown as SqliteStatement,
  }
}
