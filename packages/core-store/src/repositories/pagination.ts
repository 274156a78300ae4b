import { type OrderByDirection, type SelectQueryBuilder, sql } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { Page, PageRequest } from './types'

export const DEFAULT_PAGE_SIZE = 50

export interface PageWindow {
  readonly page: number
  readonly size: number
  readonly offset: number
  readonly reverse: boolean
}

export function pageWindow(request: PageRequest = {}): PageWindow {
  const page = request.page ?? 1
  const size = request.size ?? DEFAULT_PAGE_SIZE
  if (!Number.isInteger(page) || page < 1)
    throw new StoreError('INVALID_INPUT', 'page must be an integer ≥ 1')
  if (!Number.isInteger(size) || size < 1)
    throw new StoreError('INVALID_INPUT', 'size must be an integer ≥ 1')
  return { page, size, offset: (page - 1) * size, reverse: request.reverse ?? false }
}

export function toPage<T>(items: readonly T[], total: number, window: PageWindow): Page<T> {
  return { items, total, page: window.page, size: window.size, pages: Math.ceil(total / window.size) }
}

/**
 * One page of a list query with the total it pages over: `ordered` orders and selects the `matching` rows
 * (in `direction`, `desc` when the request asks for reverse), the window and the count are added here.
 */
export async function listPage<DB, TB extends keyof DB, O, Row, T>(
  request: PageRequest | undefined,
  matching: SelectQueryBuilder<DB, TB, O>,
  ordered: (
    matching: SelectQueryBuilder<DB, TB, O>,
    direction: OrderByDirection,
  ) => SelectQueryBuilder<DB, TB, Row>,
  map: (row: Row) => T,
): Promise<Page<T>> {
  const window = pageWindow(request)
  const [rows, count] = await Promise.all([
    ordered(matching, window.reverse ? 'desc' : 'asc')
      .limit(window.size)
      .offset(window.offset)
      .execute(),
    matching
      .select(sql<number>`count(*)`.as('n'))
      .$castTo<{ n: number | string }>()
      .executeTakeFirstOrThrow(),
  ])
  return toPage(rows.map(map), Number(count.n), window)
}
