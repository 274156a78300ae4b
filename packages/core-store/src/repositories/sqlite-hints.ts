import { type RawBuilder, sql } from 'kysely'

/**
 * SQLite: `+column` keeps the planner off the indexes that start with that column, so a lookup by primary
 * key stays a primary-key lookup instead of scanning the whole workspace through a `workspace_id` index.
 */
export function _notIndexedSqlite(column: string): RawBuilder<string> {
  return sql<string>`+${sql.ref(column)}`
}
