import type { SearchLogEntry, StoreScope } from '@hymem/core-store'

const MAX_LOGGED_QUERY = 2_000

/** Appends a row to `search_log` (queries are cut to 2,000 characters). */
export async function recordSearch(
  scope: Pick<StoreScope, 'searchLog'>,
  workspaceId: string,
  entry: SearchLogEntry,
  now: string,
): Promise<void> {
  await scope.searchLog.record(workspaceId, { ...entry, query: entry.query.slice(0, MAX_LOGGED_QUERY) }, now)
}
