import type { Selectable } from 'kysely'
import type { EntityAliasesTable } from '../kernel/tables'
import { requireText } from './checks'
import { requireId } from './json'
import type { RepositoryScope } from './scope'
import { selectInWorkspace } from './workspace-rows'

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
  /**
   * Records `surface` → `canonical` unless the surface already has an alias, which keeps it (the first claim
   * wins; an import claims with the dump's `createdAt`). Both are stored as given. True when recorded.
   */
  claim(workspaceId: string, surface: string, canonical: string, createdAt?: string): Promise<boolean>
}

export function createAliasesRepository(scope: RepositoryScope): AliasesRepository {
  const { db, context } = scope
  return {
    async listAll(workspaceId) {
      const rows = await selectInWorkspace(db, 'entity_aliases', workspaceId).orderBy('surface').execute()
      return rows.map(toAlias)
    },
    async claim(workspaceId, surface, canonical, createdAt) {
      requireId(workspaceId, 'workspace id')
      requireText(surface, 'surface')
      requireText(canonical, 'canonical')
      const created = createdAt === undefined ? context.now() : requireText(createdAt, 'createdAt')
      const result = await scope.write((tx) =>
        tx
          .insertInto('entity_aliases')
          .values({ workspace_id: workspaceId, surface, canonical, created_at: created })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst(),
      )
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
  }
}
