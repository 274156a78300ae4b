import { sql } from 'kysely'
import type { HyMemDatabase } from '../kernel/tables'
import type { WorkspaceTable } from '../repositories/workspace-rows'
import { type PurgeTx, slices } from './tally'

/**
 * Deletes the workspace's rows of `table` whose `column` holds one of `values`, a bounded `IN` list at a time,
 * and returns how many rows went.
 */
export async function deleteInWorkspace<T extends WorkspaceTable>(
  tx: PurgeTx,
  table: T,
  workspaceId: string,
  column: Extract<keyof HyMemDatabase[T], 'id' | 'edge_id'>,
  values: readonly (number | string)[],
): Promise<number> {
  let deleted = 0
  for (const part of slices(values)) {
    const result = await tx.db
      .deleteFrom(table as WorkspaceTable)
      .where('workspace_id', '=', workspaceId)
      .where(sql.ref(column), 'in', part)
      .executeTakeFirst()
    deleted += Number(result.numDeletedRows)
  }
  return deleted
}
