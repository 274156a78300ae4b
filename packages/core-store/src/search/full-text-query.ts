import { ENGLISH_STOP_WORDS } from '../fts'
import { StoreError } from '../store/errors'
import type { FullTextQuery, FullTextTable } from './types'

const FULL_TEXT_TABLES: ReadonlySet<string> = new Set<FullTextTable>([
  'messages',
  'chunks',
  'episodes',
  'procedures',
  'notes',
])

/** Refuses what no backend can search: an unknown table, a missing workspace, a bad limit, non-text. */
export function checkFullTextQuery(table: FullTextTable, text: unknown, query: FullTextQuery): void {
  if (!FULL_TEXT_TABLES.has(table))
    throw new StoreError('INVALID_INPUT', `no full-text index for table ${String(table)}`)
  if (typeof query.workspaceId !== 'string' || query.workspaceId === '') {
    throw new StoreError('INVALID_INPUT', 'full-text search needs a workspaceId')
  }
  if (!Number.isInteger(query.limit) || query.limit < 1) {
    throw new StoreError('INVALID_INPUT', 'full-text search limit must be an integer ≥ 1')
  }
  if (query.peerId !== undefined && table !== 'messages') {
    throw new StoreError('INVALID_INPUT', `peerId filters messages only, not ${table}`)
  }
  if (typeof text !== 'string')
    throw new StoreError('INVALID_INPUT', 'full-text search text must be a string')
}

/** The words a query leaves out: common English words when asked, plus the caller's own. */
export function queryStopWords(query: FullTextQuery): ReadonlySet<string> | undefined {
  const extra = query.skipWords ? [...query.skipWords] : []
  if (query.skipCommonWords && extra.length > 0) return new Set([...ENGLISH_STOP_WORDS, ...extra])
  if (query.skipCommonWords) return ENGLISH_STOP_WORDS
  return extra.length > 0 ? new Set(extra) : undefined
}

/** A backend's own rank (≥ 0 for a match, higher is better) mapped monotonically into (0, 1). */
export function normaliseRank(rank: number): number {
  const positive = Math.max(rank, 0)
  return positive / (1 + positive) || Number.MIN_VALUE
}
