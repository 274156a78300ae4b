import type { StoreScope } from '@hymem/core-store'

/** One search as written to `search_log`. */
export interface SearchLogEntry {
  readonly workspaceId: string
  readonly surface: string
  readonly query: string
  readonly candidates: number
  readonly hits: number
  readonly topScore: number | null
  readonly latencyMs: number
}

const MAX_LOGGED_QUERY = 2_000

/** Appends a row to `search_log` (queries are cut to 2,000 characters). */
export async function recordSearch(
  scope: Pick<StoreScope, 'searchLog'>,
  entry: SearchLogEntry,
  now: string,
): Promise<void> {
  await scope.searchLog.record({ ...entry, query: entry.query.slice(0, MAX_LOGGED_QUERY), createdAt: now })
}
