import type { RawBuilder, SqlBool } from 'kysely'
import { _translateFilter, type FilterDialect, type FilterTarget } from './translate'
import type { Filter } from './types'

/** A {@link Filter} as one condition in the SQL of the scope's engine (its `filter` dialect). */
export function _filterFor<F extends string>(
  engine: { readonly filter: FilterDialect },
  target: FilterTarget<F>,
  filter: Filter<F> | undefined,
): RawBuilder<SqlBool> {
  return _translateFilter(engine.filter, target, filter)
}
