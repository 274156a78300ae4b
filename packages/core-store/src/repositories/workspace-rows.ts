import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely'
import type { HyMemDatabase } from '../kernel/tables'
import { requireId } from './json'

/** The tables whose rows belong to one workspace. */
export type WorkspaceTable = {
  [T in keyof HyMemDatabase]: HyMemDatabase[T] extends { workspace_id: string } ? T : never
}[keyof HyMemDatabase]

type WorkspaceRows<T extends WorkspaceTable> = SelectQueryBuilder<
  HyMemDatabase,
  T,
  Selectable<HyMemDatabase[T]>
>

/**
 * Every row of `table` in one workspace, after checking the id: where almost every portable read starts, so
 * no read can forget the workspace it belongs to.
 */
export function selectInWorkspace<T extends WorkspaceTable>(
  db: Kysely<HyMemDatabase>,
  table: T,
  workspaceId: string,
): WorkspaceRows<T> {
  requireId(workspaceId, 'workspace id')
  // Kysely cannot resolve a column reference through a generic table name; every WorkspaceTable has it.
  const anyTable = db.selectFrom(table as WorkspaceTable).selectAll()
  return anyTable.where('workspace_id', '=', workspaceId) as unknown as WorkspaceRows<T>
}
