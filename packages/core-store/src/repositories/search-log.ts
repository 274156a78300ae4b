import { StoreError } from '../store/errors'
import type { RepositoryScope } from './scope'

/** Search-log figures of one UTC day. */
export interface SearchLogDay {
  /** `YYYY-MM-DD` (UTC). */
  readonly day: string
  readonly searches: number
  /** Searches that returned nothing. */
  readonly empty: number
  /** Nearest-rank latency percentiles of the day, in ms. */
  readonly p50Ms: number
  readonly p95Ms: number
}

/** The search log (`search_log`): one row per query, for stats. */
export interface SearchLogRepository {
  /** Per-day volume, empty results and latency percentiles over the most recent `window` searches, oldest day first. */
  dailyFigures(workspaceId: string, options?: { window?: number }): Promise<SearchLogDay[]>
}

const DEFAULT_WINDOW = 50_000

function nearestRank(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length))) - 1] ?? 0
}

export function createSearchLogRepository(scope: RepositoryScope): SearchLogRepository {
  const { db } = scope
  return {
    async dailyFigures(workspaceId, options = {}) {
      const window = options.window ?? DEFAULT_WINDOW
      if (!Number.isInteger(window) || window < 1)
        throw new StoreError('INVALID_INPUT', 'window must be an integer ≥ 1')
      const rows = await db
        .selectFrom('search_log')
        .select(['created_at', 'hits', 'latency_ms'])
        .where('workspace_id', '=', workspaceId)
        .orderBy('id', 'desc')
        .limit(window)
        .execute()
      const days = new Map<string, { latencies: number[]; empty: number }>()
      for (const row of rows) {
        const day = row.created_at.slice(0, 10)
        const bucket = days.get(day) ?? days.set(day, { latencies: [], empty: 0 }).get(day)!
        bucket.latencies.push(row.latency_ms)
        if (row.hits === 0) bucket.empty++
      }
      return [...days.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([day, { latencies, empty }]) => {
          latencies.sort((a, b) => a - b)
          return {
            day,
            searches: latencies.length,
            empty,
            p50Ms: nearestRank(latencies, 0.5),
            p95Ms: nearestRank(latencies, 0.95),
          }
        })
    },
  }
}
