import { type Kysely, type RawBuilder, type Selectable, sql } from 'kysely'
import type { StoreEngine } from '../engine/types'
import type { HyMemDatabase } from '../kernel/tables'

type IdTable = 'messages' | 'chunks' | 'episodes' | 'procedures' | 'notes' | 'passages'

/**
 * The workspace's rows of `table` whose `id` is among `ids`, in no particular order, optionally narrowed by
 * `where`. The ids travel as one parameter (see `_inIdList`), so one statement serves any number of them,
 * and on SQLite `+workspace_id` keeps the planner on the primary key instead of the workspace's index.
 */
export async function selectByIds<T extends IdTable>(
  engine: StoreEngine,
  db: Kysely<HyMemDatabase>,
  table: T,
  workspaceId: string,
  ids: readonly (number | string)[],
  where: readonly RawBuilder<unknown>[] = [],
): Promise<Selectable<HyMemDatabase[T]>[]> {
  const conditions = [
    engine.inIdList('id', ids),
    sql`${engine.notIndexed('workspace_id')} = ${workspaceId}`,
    ...where,
  ]
  const { rows } = await sql<Selectable<HyMemDatabase[T]>>`
    SELECT * FROM ${sql.table(table)} WHERE ${sql.join(conditions, sql` AND `)}`.execute(db)
  return rows
}
