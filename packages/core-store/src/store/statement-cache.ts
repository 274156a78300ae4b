import type Database from 'better-sqlite3'
import type { SqliteDatabase, SqliteStatement } from 'kysely'

/**
 * Adapts a better-sqlite3 connection for kysely's SqliteDialect, reusing prepared statements by SQL text.
 * kysely prepares every query anew; on hot paths (batched inserts, FTS lookups) re-preparing costs more
 * than running the statement.
 */
export function cachingDatabase(sqlite: Database.Database, capacity = 256): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>()
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      const cached = cache.get(sql)
      if (cached) {
        cache.delete(sql)
        cache.set(sql, cached)
        return cached
      }
      const statement = sqlite.prepare(sql) as unknown as SqliteStatement
      cache.set(sql, statement)
      if (cache.size > capacity) {
        const oldest = cache.keys().next().value
        if (oldest !== undefined) cache.delete(oldest)
      }
      return statement
    },
  }
}
