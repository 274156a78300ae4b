import type { RepositoryScope } from './scope'

/** Entity aliases (`entity_aliases`): surface form → canonical name. */
// biome-ignore lint/suspicious/noEmptyInterface: methods are added as callers move off raw SQL
export interface AliasesRepository {}

export function createAliasesRepository(_scope: RepositoryScope): AliasesRepository {
  return {}
}
