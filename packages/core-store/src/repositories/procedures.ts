import type { RepositoryScope } from './scope'

/** Procedures (`procedures`): ordered steps learned from sessions. */
// biome-ignore lint/suspicious/noEmptyInterface: methods are added as callers move off raw SQL
export interface ProceduresRepository {}

export function createProceduresRepository(_scope: RepositoryScope): ProceduresRepository {
  return {}
}
