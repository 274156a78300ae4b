import { requireText } from './checks'
import { requireId } from './json'
import type { RepositoryScope } from './scope'

/** The kind of thing an entity is (`service`, `database`, ...), decided by a running vote. */
export interface EntityType {
  readonly entity: string
  readonly type: string
  /** The vote's current margin for `type`. */
  readonly evidence: number
  readonly updatedAt: string
}

/** Entity types (`entity_types`): the kind of each canonical entity. */
export interface EntityTypesRepository {
  /** Every typed entity of the workspace, by entity. */
  listAll(workspaceId: string): Promise<EntityType[]>
  /** The types of the given entities (untyped entities are absent). */
  typesOf(workspaceId: string, entities: readonly string[]): Promise<Map<string, string>>
  /**
   * Counts one observation of `entity` being a `type`, as a majority vote: agreeing evidence adds one,
   * disagreeing takes one away and flips the type when the margin is used up.
   */
  vote(workspaceId: string, entity: string, type: string): Promise<void>
}

export function createEntityTypesRepository(scope: RepositoryScope): EntityTypesRepository {
  const { db, context } = scope
  return {
    async listAll(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await db
        .selectFrom('entity_types')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('entity')
        .execute()
      return rows.map((row) => ({
        entity: row.entity,
        type: row.type,
        evidence: row.evidence,
        updatedAt: row.updated_at,
      }))
    },
    async typesOf(workspaceId, entities) {
      requireId(workspaceId, 'workspace id')
      if (entities.length === 0) return new Map()
      const rows = await db
        .selectFrom('entity_types')
        .select(['entity', 'type'])
        .where('workspace_id', '=', workspaceId)
        .where('entity', 'in', entities)
        .execute()
      return new Map(rows.map((row) => [row.entity, row.type]))
    },
    async vote(workspaceId, entity, type) {
      requireId(workspaceId, 'workspace id')
      requireText(entity, 'entity')
      requireText(type, 'type')
      const now = context.now()
      await scope.write(async (tx) => {
        const row = await tx
          .selectFrom('entity_types')
          .select(['type', 'evidence'])
          .where('workspace_id', '=', workspaceId)
          .where('entity', '=', entity)
          .executeTakeFirst()
        if (!row) {
          await tx
            .insertInto('entity_types')
            .values({ workspace_id: workspaceId, entity, type, updated_at: now })
            .execute()
          return
        }
        const patch =
          row.type === type
            ? { evidence: row.evidence + 1 }
            : row.evidence <= 1
              ? { type, evidence: 1 }
              : { evidence: row.evidence - 1 }
        await tx
          .updateTable('entity_types')
          .set({ ...patch, updated_at: now })
          .where('workspace_id', '=', workspaceId)
          .where('entity', '=', entity)
          .execute()
      })
    },
  }
}
