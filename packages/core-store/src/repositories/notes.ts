import type { RepositoryScope } from './scope'

/** Explicit memories (`notes`). */
// biome-ignore lint/suspicious/noEmptyInterface: methods are added as callers move off raw SQL
export interface NotesRepository {}

export function createNotesRepository(_scope: RepositoryScope): NotesRepository {
  return {}
}
