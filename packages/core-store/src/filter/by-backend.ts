import type { RawBuilder, SqlBool } from 'kysely'
import type { RepositoryBackend } from '../repositories/backend'
import { POSTGRES_FILTER_DIALECT } from './postgres'
import { _sqliteFilter, _translateFilter, type FilterTarget } from './sqlite'
import type { Filter } from './types'

/** A {@link Filter} as one condition in the SQL of the scope's engine (SQLite or PostgreSQL). */
export function _filterFor<F extends string>(
  backend: RepositoryBackend,
  target: FilterTarget<F>,
  filter: Filter<F> | undefined,
): RawBuilder<SqlBool> {
  return backend.name === 'postgres'
    ? _translateFilter(POSTGRES_FILTER_DIALECT, target, filter)
    : _sqliteFilter(target, filter)
}
