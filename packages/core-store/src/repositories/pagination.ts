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
