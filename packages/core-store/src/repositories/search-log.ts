import type { RepositoryScope } from './scope'

/** The search log (`search_log`): one row per query, for stats. */
// biome-ignore lint/suspicious/noEmptyInterface: methods are added as callers move off raw SQL
export interface SearchLogRepository {}

export function createSearchLogRepository(_scope: RepositoryScope): SearchLogRepository {
  return {}
}
