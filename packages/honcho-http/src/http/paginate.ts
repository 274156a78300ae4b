import type { OrderByExpression, SelectQueryBuilder } from 'kysely'
import type { pageRequest } from '../wire/schemas'

/** A parsed `?page&size&reverse` request (see `pageRequest`). */
export type PageRequest = ReturnType<typeof pageRequest>

/** Honcho's list envelope: one page of items plus the totals a client needs to walk the rest. */
export interface PageEnvelope<T> {
  items: T[]
  total: number
  page: number
  size: number
  pages: number
}

/** Wraps one page of already selected items and the total count in Honcho's list envelope. */
export function pageEnvelope<T>(items: T[], total: number, page: PageRequest): PageEnvelope<T> {
  return { items, total, page: page.page, size: page.size, pages: Math.ceil(total / page.size) }
}

/** How `paginate` selects, orders and shapes the rows of a filtered query. */
export interface PaginateOptions<DB, TB extends keyof DB, O, T> {
  /** Picks the columns of each row (e.g. `(q) => q.selectAll()`). */
  select: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>
  /** Sort keys, most significant first; all ascending, or all descending when the page is `reverse`. */
  orderBy: readonly NoInfer<OrderByExpression<DB, TB, O>>[]
  /** Turns one row into its wire shape. */
  map: (row: O) => T
}

/**
 * Runs one page of `query` (already filtered, nothing selected yet) and, in parallel, its total row
 * count, and returns both in Honcho's list envelope.
 */
export async function paginate<DB, TB extends keyof DB, O, T>(
  query: SelectQueryBuilder<DB, TB, object>,
  page: PageRequest,
  options: PaginateOptions<DB, TB, O, T>,
): Promise<PageEnvelope<T>> {
  const direction = page.reverse ? 'desc' : 'asc'
  let rows = options.select(query)
  for (const key of options.orderBy) rows = rows.orderBy(key, direction)
  // Kysely cannot resolve a selection on a generic query, so the count row is typed by hand.
  const counted = query.select((eb) => eb.fn.countAll<number>().as('n')) as unknown as SelectQueryBuilder<
    DB,
    TB,
    { n: number }
  >
  const [selected, count] = await Promise.all([
    rows
      .limit(page.size)
      .offset((page.page - 1) * page.size)
      .execute(),
    counted.executeTakeFirstOrThrow(),
  ])
  return pageEnvelope(
    selected.map((row) => options.map(row)),
    Number(count.n),
    page,
  )
}
