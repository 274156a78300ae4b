import { type Insertable, type Selectable, sql } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { EntityTypesTable } from '../kernel/tables'
import { requireText } from './checks'
import { requireId } from './json'
import type { RepositoryScope } from './scope'
import { selectInWorkspace } from './workspace-rows'

/** The kind of thing an entity is (`service`, `database`, ...), decided by a running vote. */
export interface EntityType {
  readonly entity: string
  readonly type: string
  /** The vote's current margin for `type`. */
  readonly evidence: number
  readonly updatedAt: string
}

export function toEntityType(row: Selectable<EntityTypesTable>): EntityType {
  return { entity: row.entity, type: row.type, evidence: row.evidence, updatedAt: row.updated_at }
}

export function fromEntityType(workspaceId: string, entityType: EntityType): Insertable<EntityTypesTable> {
  return {
    workspace_id: workspaceId,
    entity: entityType.entity,
    type: entityType.type,
    evidence: entityType.evidence,
    updated_at: entityType.updatedAt,
  }
}

/** Entity types (`entity_types`): the kind of each canonical entity. */
export interface EntityTypesRepository {
  /** Every typed entity of the workspace, by entity. */
  listAll(workspaceId: string): Promise<EntityType[]>
  /** The type of each given entity that has one. */
  typesOf(workspaceId: string, entities: readonly string[]): Promise<Map<string, string>>
  /** Entities of a type, best evidenced first (then by name), at most `limit`. */
  findEntitiesOfType(workspaceId: string, type: string, limit: number): Promise<string[]>
  /** Which of `names` are entity types of the workspace, sorted. */
  findTypesNamed(workspaceId: string, names: readonly string[]): Promise<string[]>
  /** Sets an entity's type (replacing any earlier one) and its evidence count (default 1), as an import does. */
  set(workspaceId: string, entity: { entity: string; type: string; evidence?: number }): Promise<void>
  /**
   * Counts one observation of `entity` being a `type`, as a majority vote: agreeing evidence adds one,
   * disagreeing takes one away and flips the type when the margin is used up.
   */
  vote(workspaceId: string, entity: string, type: string): Promise<void>
}

/** Entities per `IN (...)` list. */

export function createEntityTypesRepository(scope: RepositoryScope): EntityTypesRepository {
  const { db, context } = scope
  return {
    async listAll(workspaceId) {
      const rows = await selectInWorkspace(db, 'entity_types', workspaceId).orderBy('entity').execute()
      return rows.map(toEntityType)
    },
    async typesOf(workspaceId, entities) {
      requireId(workspaceId, 'workspace id')
      if (!Array.isArray(entities) || !entities.every((e) => typeof e === 'string'))
        throw new StoreError('INVALID_INPUT', 'entities must be an array of strings')
      const unique = [...new Set(entities)]
      if (unique.length === 0) return new Map()
      const rows = await db
        .selectFrom('entity_types')
        .select(['entity', 'type'])
        .where('workspace_id', '=', workspaceId)
        .where(sql<boolean>`entity IN (${scope.engine.textRows(unique)})`)
        .execute()
      return new Map(rows.map((row) => [row.entity, row.type]))
    },
    async findEntitiesOfType(workspaceId, type, limit) {
      requireId(workspaceId, 'workspace id')
      if (!Number.isInteger(limit) || limit < 0)
        throw new StoreError('INVALID_INPUT', 'limit must be a non-negative integer')
      if (limit === 0) return []
      const rows = await db
        .selectFrom('entity_types')
        .select('entity')
        .where('workspace_id', '=', workspaceId)
        .where('type', '=', type)
        .orderBy('evidence', 'desc')
        .orderBy('entity')
        .limit(limit)
        .execute()
      return rows.map((row) => row.entity)
    },
    async findTypesNamed(workspaceId, names) {
      requireId(workspaceId, 'workspace id')
      if (names.length === 0) return []
      const { rows } = await sql<{ type: string }>`
        SELECT DISTINCT t.type FROM (SELECT value AS key FROM (${scope.engine.textRows(names)}) AS v) q
          JOIN entity_types t ON t.workspace_id = ${workspaceId} AND t.type = q.key
        ORDER BY t.type`.execute(db)
      return rows.map((row) => row.type)
    },
    async set(workspaceId, { entity, type, evidence = 1 }) {
      requireId(workspaceId, 'workspace id')
      requireId(entity, 'entity')
      requireId(type, 'type')
      if (!Number.isInteger(evidence) || evidence < 0)
        throw new StoreError('INVALID_INPUT', 'evidence must be a non-negative integer')
      const updatedAt = context.now()
      await db
        .insertInto('entity_types')
        .values({ workspace_id: workspaceId, entity, type, evidence, updated_at: updatedAt })
        .onConflict((conflict) =>
          conflict.columns(['workspace_id', 'entity']).doUpdateSet({ type, evidence, updated_at: updatedAt }),
        )
        .execute()
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
          .$if(scope.engine.rowLocks, (query) => query.forUpdate())
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
