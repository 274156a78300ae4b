import type { Kysely } from 'kysely'
import type { RepositoryOptions, RepositoryScope } from '../engine/types'
import type { StoreContext } from '../kernel/context'
import type { HyMemDatabase } from '../kernel/tables'

export type { RepositoryOptions, RepositoryScope } from '../engine/types'

export function _createRepositoryScope(
  db: Kysely<HyMemDatabase>,
  context: StoreContext,
  options: RepositoryOptions,
): RepositoryScope {
  return { db, context, engine: options.engine, ...options.engine.guards(db, options) }
}
