import type { RepositoryScope } from './scope'

/** Entity mentions per chunk (`entity_mentions`). */
// biome-ignore lint/suspicious/noEmptyInterface: methods are added as callers move off raw SQL
export interface MentionsRepository {}

export function createMentionsRepository(_scope: RepositoryScope): MentionsRepository {
  return {}
}
