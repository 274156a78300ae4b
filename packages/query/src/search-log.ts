import type { Store } from '@hymem/core-store'
import type { QueryLogger } from './types'

/** Logged queries are cut to this many characters. */
const LOGGED_QUERY_CHARS = 500

/** One `search_log` row per augment; a failure is reported to the log, never thrown. */
export async function writeSearchLog(
  store: Store,
  log: QueryLogger | undefined,
  row: {
    workspaceId: string
    query: string
    candidates: number
    hits: number
    topScore: number | null
    latencyMs: number
  },
): Promise<void> {
  try {
    await store.searchLog.record(row.workspaceId, {
      surface: 'augment',
      query: row.query.slice(0, LOGGED_QUERY_CHARS),
      candidates: row.candidates,
      hits: row.hits,
      topScore: row.topScore,
      latencyMs: row.latencyMs,
    })
  } catch (error) {
    log?.({ kind: 'search-log-failed', error })
  }
}
