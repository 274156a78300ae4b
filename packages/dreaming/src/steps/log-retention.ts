import type { TrimBounds } from '@hymem/core-store'
import { checkpoint, count, type RunContext } from '../run/context'

const DAY_MS = 86_400_000
/** Rows deleted per statement: short write transactions, so requests on the same database never wait long. */
const ROWS_PER_DELETE = 2000

/**
 * Keeps the append-only logs within their configured bounds: the workspace's search log and the LLM response
 * cache (shared by every workspace), each by age and by row count, 0 keeping everything.
 */
export async function trimLogs(ctx: RunContext): Promise<void> {
  const { store, workspaceId, config } = ctx
  const searchLog = bounds(ctx, config.searchLogRetentionDays, config.searchLogMaxRows)
  if (searchLog) {
    const removed = await drain(ctx, () => store.searchLog.trim(workspaceId, searchLog))
    if (removed > 0) count(ctx, 'searchLogTrimmed', removed)
  }
  const llmCache = bounds(ctx, config.llmCacheRetentionDays, config.llmCacheMaxRows)
  if (llmCache) {
    const removed = await drain(ctx, () => store.llmCache.trim(llmCache))
    if (removed > 0) count(ctx, 'llmCacheTrimmed', removed)
  }
}

function bounds(ctx: RunContext, days: number, rows: number): TrimBounds | null {
  if (days <= 0 && rows <= 0) return null
  const now = ctx.store.context.clock().getTime()
  return {
    before: days > 0 ? new Date(now - days * DAY_MS).toISOString() : null,
    keepNewest: rows > 0 ? rows : null,
    limit: ROWS_PER_DELETE,
  }
}

async function drain(ctx: RunContext, trimOnce: () => Promise<number>): Promise<number> {
  let removed = 0
  for (;;) {
    const n = await trimOnce()
    removed += n
    if (n < ROWS_PER_DELETE) return removed
    await checkpoint(ctx)
  }
}
