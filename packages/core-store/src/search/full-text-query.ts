import { StoreError } from '../kernel/errors'
import { COMMON_WORDS } from '../text/stop-words'
import type { FullTextHit, FullTextQuery, FullTextTable } from './types'

const FULL_TEXT_TABLES: ReadonlySet<string> = new Set<FullTextTable>([
  'messages',
  'chunks',
  'episodes',
  'procedures',
  'notes',
  'passages',
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
  if (query.peerId !== undefined && table !== 'messages' && table !== 'passages') {
    throw new StoreError('INVALID_INPUT', `peerId filters messages and passages only, not ${table}`)
  }
  if (typeof text !== 'string')
    throw new StoreError('INVALID_INPUT', 'full-text search text must be a string')
}

/** The words a query leaves out: common words (English and other languages) when asked, plus the caller's own. */
export function queryStopWords(query: FullTextQuery): ReadonlySet<string> | undefined {
  const extra = query.skipWords ? [...query.skipWords] : []
  if (query.skipCommonWords && extra.length > 0) return new Set([...COMMON_WORDS, ...extra])
  if (query.skipCommonWords) return COMMON_WORDS
  return extra.length > 0 ? new Set(extra) : undefined
}

/**
 * A backend's own rank (≥ 0 for a match, higher is better) relative to the best hit's, so the best scores 1 and
 * every score keeps its ratio to the others: callers that add scores of one query's hits (context scoring) see
 * the rank's proportions.
 */
export function relativeScores(rows: readonly FullTextHit[]): FullTextHit[] {
  const best = Math.max(0, Number(rows[0]?.score ?? 0))
  return rows.map((row) => ({
    id: row.id,
    score: best > 0 ? Math.max(Number(row.score), 0) / best || Number.MIN_VALUE : 1,
  }))
}
