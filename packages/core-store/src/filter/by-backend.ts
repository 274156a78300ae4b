import type { RawBuilder, SqlBool } from 'kysely'
import { POSTGRES_FILTER_DIALECT } from '../engine/postgres/filter-dialect'
import { SQLITE_FILTER_DIALECT } from '../engine/sqlite/filter-dialect'
import type { RepositoryBackend } from '../repositories/backend'
import { _translateFilter, type FilterTarget } from './translate'
import type { Filter } from './types'

/** A {@link Filter} as one condition in the SQL of the scope's engine (SQLite or PostgreSQL). */
export function _filterFor<F extends string>(
  backend: RepositoryBackend,
  target: FilterTarget<F>,
  filter: Filter<F> | undefined,
): RawBuilder<SqlBool> {
  const dialect = backend.name === 'postgres' ? POSTGRES_FILTER_DIALECT : SQLITE_FILTER_DIALECT
  return _translateFilter(dialect, target, filter)
}
