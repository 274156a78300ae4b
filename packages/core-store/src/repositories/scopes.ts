import type { RepositoryScope } from './scope'

/** Scopes (`scopes`, `scope_sessions`): named groups of sessions. */
// biome-ignore lint/suspicious/noEmptyInterface: methods are added as callers move off raw SQL
export interface ScopesRepository {}

export function createScopesRepository(_scope: RepositoryScope): ScopesRepository {
  return {}
}
