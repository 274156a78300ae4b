import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { StoreError } from '../kernel/errors'
import { parseIsoTime } from '../kernel/iso-time'

/** How much of a log to keep when trimming it: rows not older than `before`, and the `keepNewest` newest. */
export interface TrimBounds {
  /** Rows created before this ISO time go; null keeps any age. */
  readonly before: string | null
  /** How many of the newest rows stay; null keeps any number. */
  readonly keepNewest: number | null
  /** Most rows deleted by this call (one short statement); the caller calls again while it returns `limit`. */
  readonly limit: number
}

export function requireTrimBounds(bounds: TrimBounds): TrimBounds {
  if (bounds.before !== null && parseIsoTime(bounds.before) === null)
    throw new StoreError('INVALID_INPUT', 'before must be an ISO time')
  if (bounds.keepNewest !== null && (!Number.isInteger(bounds.keepNewest) || bounds.keepNewest < 0))
    throw new StoreError('INVALID_INPUT', 'keepNewest must be a non-negative integer')
  if (!Number.isInteger(bounds.limit) || bounds.limit < 1)
    throw new StoreError('INVALID_INPUT', 'limit must be an integer ≥ 1')
  return bounds
}

/**
 * The rows a trim may delete: created before `before`, or at or before `edge` (the newest row past the
 * `keepNewest` kept), ordered by `created_at` then the `tiebreak` column.
 */
export function outsideBounds(
  before: string | null,
  edge: { readonly createdAt: string; readonly tiebreak: string | number } | undefined,
  tiebreak: 'id' | 'key',
): RawBuilder<SqlBool> {
  const parts = [
    ...(before === null ? [] : [sql`created_at < ${before}`]),
    ...(edge === undefined
      ? []
      : [
          sql`created_at < ${edge.createdAt}`,
          sql`(created_at = ${edge.createdAt} AND ${sql.ref(tiebreak)} <= ${edge.tiebreak})`,
        ]),
  ]
  return sql<SqlBool>`(${sql.join(parts, sql` OR `)})`
}
