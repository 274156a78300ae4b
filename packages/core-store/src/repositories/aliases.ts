import type { Selectable } from 'kysely'
import type { EntityAliasesTable } from '../schema/tables'
import { requireId } from './json'
import type { RepositoryScope } from './scope'

/** A surface form that resolves to a canonical entity name. */
export interface Alias {
  readonly workspaceId: string
  readonly surface: string
  readonly canonical: string
  readonly createdAt: string
}

function toAlias(row: Selectable<EntityAliasesTable>): Alias {
  return {
    workspaceId: row.workspace_id,
    surface: row.surface,
    canonical: row.canonical,
    createdAt: row.created_at,
  }
}

/** Entity aliases (`entity_aliases`): surface form → canonical name. */
export interface AliasesRepository {
  /** Every alias of the workspace, by surface. */
  listAll(workspaceId: string): Promise<Alias[]>
  /** Stores an alias as given (an import); false when the surface has one, which is left untouched. */
  insertIfAbsent(alias: Alias): Promise<boolean>
}

export function createAliasesRepository(scope: RepositoryScope): AliasesRepository {
  const { db } = scope
  return {
    async listAll(workspaceId) {
      const rows = await db
        .selectFrom('entity_aliases')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('surface')
        .execute()
      return rows.map(toAlias)
    },
    async insertIfAbsent(alias) {
      requireId(alias.workspaceId, 'workspace id')
      requireId(alias.surface, 'surface')
      requireId(alias.canonical, 'canonical')
      const result = await scope.write((tx) =>
        tx
          .insertInto('entity_aliases')
          .values({
            workspace_id: alias.workspaceId,
            surface: alias.surface,
            canonical: alias.canonical,
            created_at: alias.createdAt,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst(),
      )
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
  }
}
