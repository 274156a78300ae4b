import type { RepositoryScope } from './scope'

/** Behavioural markers (`behavioral_markers`) and the profile entries consolidated from them (`profile_entries`). */
// biome-ignore lint/suspicious/noEmptyInterface: methods are added as callers move off raw SQL
export interface MarkersRepository {}

export function createMarkersRepository(_scope: RepositoryScope): MarkersRepository {
  return {}
}
