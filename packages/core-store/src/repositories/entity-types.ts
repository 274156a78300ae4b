import { StoreError } from '../store/errors'
import type { RepositoryScope } from './scope'

/** The type recorded for one entity. */
export interface EntityType {
  readonly entity: string
  readonly type: string
  /** How many extractions named this type. */
  readonly evidence: number
}

/** Entity types (`entity_types`) with their evidence counts. */
export interface EntityTypesRepository {
  /** The recorded types of these entities (entities without one are absent). */
  forEntities(workspaceId: string, entities: readonly string[]): Promise<EntityType[]>
}

const IN_LIST_CHUNK = 500

export function createEntityTypesRepository(scope: RepositoryScope): EntityTypesRepository {
  const { db } = scope
  return {
    async forEntities(workspaceId, entities) {
      if (!entities.every((e) => typeof e === 'string'))
        throw new StoreError('INVALID_INPUT', 'entities must be strings')
      const unique = [...new Set(entities)]
      const found: EntityType[] = []
      for (let start = 0; start < unique.length; start += IN_LIST_CHUNK) {
        const rows = await db
          .selectFrom('entity_types')
          .select(['entity', 'type', 'evidence'])
          .where('workspace_id', '=', workspaceId)
          .where('entity', 'in', unique.slice(start, start + IN_LIST_CHUNK))
          .execute()
        found.push(...rows)
      }
      return found
    },
  }
}
