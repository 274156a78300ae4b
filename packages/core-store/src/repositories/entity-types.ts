import type { RepositoryScope } from './scope'

/** Entity types (`entity_types`) with their evidence counts. */
// biome-ignore lint/suspicious/noEmptyInterface: methods are added as callers move off raw SQL
export interface EntityTypesRepository {}

export function createEntityTypesRepository(_scope: RepositoryScope): EntityTypesRepository {
  return {}
}
