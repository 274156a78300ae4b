import { type Kysely, type RawBuilder, type Selectable, sql } from 'kysely'
import type { HyMemDatabase } from '../schema/tables'

type IdTable = 'messages' | 'chunks' | 'episodes' | 'procedures' | 'notes'

/**
 * The workspace's rows of `table` whose `id` is among `ids`, in no particular order, optionally narrowed by
 * `where`. SQLite-specific: the ids travel as one JSON array, so one cached statement serves any number of
 * them, and `+workspace_id` keeps the planner on the primary key instead of the workspace's index.
 */
export async function selectByIdsSqlite<T extends IdTable>(
  db: Kysely<HyMemDatabase>,
  table: T,
  workspaceId: string,
  ids: readonly (number | string)[],
  where: readonly RawBuilder<unknown>[] = [],
): Promise<Selectable<HyMemDatabase[T]>[]> {
  const conditions = [sql`+workspace_id = ${workspaceId}`, ...where]
  const { rows } = await sql<Selectable<HyMemDatabase[T]>>`
    SELECT * FROM ${sql.table(table)}
    WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND ${sql.join(conditions, sql` AND `)}`.execute(
    db,
  )
  return rows
}
