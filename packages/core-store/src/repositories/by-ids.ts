import { type Kysely, type RawBuilder, type Selectable, sql } from 'kysely'
import type { HyMemDatabase } from '../schema/tables'
import type { RepositoryBackend } from './backend'
import { _inIdList, _notIndexed } from './sqlite-hints'

type IdTable = 'messages' | 'chunks' | 'episodes' | 'procedures' | 'notes' | 'passages'

/**
 * The workspace's rows of `table` whose `id` is among `ids`, in no particular order, optionally narrowed by
 * `where`. The ids travel as one parameter (see `_inIdList`), so one statement serves any number of them,
 * and on SQLite `+workspace_id` keeps the planner on the primary key instead of the workspace's index.
 */
export async function selectByIds<T extends IdTable>(
  backend: RepositoryBackend,
  db: Kysely<HyMemDatabase>,
  table: T,
  workspaceId: string,
  ids: readonly (number | string)[],
  where: readonly RawBuilder<unknown>[] = [],
): Promise<Selectable<HyMemDatabase[T]>[]> {
  const conditions = [
    _inIdList(backend, 'id', ids),
    sql`${_notIndexed(backend, 'workspace_id')} = ${workspaceId}`,
    ...where,
  ]
  const { rows } = await sql<Selectable<HyMemDatabase[T]>>`
    SELECT * FROM ${sql.table(table)} WHERE ${sql.join(conditions, sql` AND `)}`.execute(db)
  return rows
}
