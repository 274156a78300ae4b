import { StoreError } from '../kernel/errors'
import { ISO_TIME_HINT, parseIsoTime } from '../kernel/iso-time'
import { requireId } from './json'
import type { RepositoryScope } from './scope'
import { outsideBounds, requireTrimBounds, type TrimBounds } from './trim-bounds'
import { selectInWorkspace } from './workspace-rows'

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

/** One search, as the caller reports it. */
export interface SearchLogEntry {
  /** What searched: `augment`, `notes`, ... */
  readonly surface: string
  readonly query: string
  readonly candidates: number
  readonly hits: number
  /** Best score returned; null when nothing was (a non-finite score is stored as null). */
  readonly topScore: number | null
  readonly latencyMs: number
}

/** A logged search. */
export interface LoggedSearch extends SearchLogEntry {
  readonly id: number
  readonly workspaceId: string
  readonly createdAt: string
}

/** Figures over a workspace's search log; the caller derives rates and percentiles. */
export interface SearchLogSummary {
  readonly searches: number
  /** Searches that returned nothing. */
  readonly empty: number
  /** Mean hits per search (0 without searches). */
  readonly avgHits: number
  /** Mean best score over the searches that had one, or null. */
  readonly avgTopScore: number | null
  readonly bySurface: Record<string, number>
  /** Latencies of the most recent `latencyWindow` searches, newest first. */
  readonly latenciesMs: readonly number[]
  /** The most recent `recentMisses` searches that returned nothing, newest first. */
  readonly recentMisses: readonly { readonly query: string; readonly surface: string; readonly at: string }[]
}

/** The search log (`search_log`): one row per query, for stats. */
export interface SearchLogRepository {
  /** Appends one row, stamped now (or `at`). */
  record(workspaceId: string, entry: SearchLogEntry, at?: string): Promise<void>
  /** The workspace's logged searches, oldest first. */
  list(workspaceId: string): Promise<LoggedSearch[]>
  /** Volume, means, surfaces, recent latencies and misses of the workspace's searches. */
  summary(
    workspaceId: string,
    options: { readonly latencyWindow: number; readonly recentMisses: number },
  ): Promise<SearchLogSummary>
  /** Per-day volume, empty results and latency percentiles over the most recent `window` searches, oldest day first. */
  dailyFigures(workspaceId: string, options?: { window?: number }): Promise<SearchLogDay[]>
  /** Deletes up to `bounds.limit` of the workspace's oldest rows outside `bounds`; returns how many went. */
  trim(workspaceId: string, bounds: TrimBounds): Promise<number>
}

const DEFAULT_WINDOW = 50_000

function nearestRank(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length))) - 1] ?? 0
}

function count(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0)
    throw new StoreError('INVALID_INPUT', `${field} must be a non-negative integer`)
  return value
}

export function createSearchLogRepository(scope: RepositoryScope): SearchLogRepository {
  const { db, context } = scope
  const ofWorkspace = (workspaceId: string) =>
    db.selectFrom('search_log').where('workspace_id', '=', workspaceId)
  return {
    async record(workspaceId, entry, at) {
      requireId(workspaceId, 'workspace id')
      if (typeof entry.surface !== 'string' || typeof entry.query !== 'string')
        throw new StoreError('INVALID_INPUT', 'a search log entry needs a surface and a query')
      if (typeof entry.latencyMs !== 'number' || !Number.isFinite(entry.latencyMs))
        throw new StoreError('INVALID_INPUT', 'latencyMs must be a finite number')
      if (at !== undefined && parseIsoTime(at) === null)
        throw new StoreError('INVALID_INPUT', `at must be ${ISO_TIME_HINT}`)
      const values = {
        workspace_id: workspaceId,
        surface: entry.surface,
        query: entry.query,
        candidates: count(entry.candidates, 'candidates'),
        hits: count(entry.hits, 'hits'),
        top_score: entry.topScore !== null && Number.isFinite(entry.topScore) ? entry.topScore : null,
        latency_ms: entry.latencyMs,
        created_at: at ?? context.now(),
      }
      // A write like any other: through the thread write lock, never into SQLite's busy handler, which
      // sleeps on the calling thread while a dream worker's transaction holds the file.
      await scope.write((tx) => tx.insertInto('search_log').values(values).execute())
    },
    async list(workspaceId) {
      const rows = await selectInWorkspace(db, 'search_log', workspaceId).orderBy('id').execute()
      return rows.map((row) => ({
        id: row.id,
        workspaceId: row.workspace_id,
        surface: row.surface,
        query: row.query,
        candidates: row.candidates,
        hits: row.hits,
        topScore: row.top_score,
        latencyMs: row.latency_ms,
        createdAt: row.created_at,
      }))
    },
    async summary(workspaceId, options) {
      const totals = await ofWorkspace(workspaceId)
        .select((eb) => [
          eb.fn.countAll<number>().as('searches'),
          eb.fn.sum<number>(eb.case().when('hits', '=', 0).then(1).else(0).end()).as('empty'),
          eb.fn.avg<number>('hits').as('avgHits'),
          eb.fn.avg<number>('top_score').as('avgTopScore'),
        ])
        .executeTakeFirstOrThrow()
      const surfaces = await ofWorkspace(workspaceId)
        .select(['surface', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('surface')
        .execute()
      const latencies = await ofWorkspace(workspaceId)
        .select('latency_ms')
        .orderBy('id', 'desc')
        .limit(options.latencyWindow)
        .execute()
      const misses = await ofWorkspace(workspaceId)
        .where('hits', '=', 0)
        .select(['query', 'surface', 'created_at'])
        .orderBy('id', 'desc')
        .limit(options.recentMisses)
        .execute()
      const searches = Number(totals.searches)
      return {
        searches,
        empty: Number(totals.empty ?? 0),
        avgHits: searches === 0 ? 0 : Number(totals.avgHits ?? 0),
        avgTopScore: totals.avgTopScore === null ? null : Number(totals.avgTopScore),
        bySurface: Object.fromEntries(surfaces.map((row) => [row.surface, Number(row.n)])),
        latenciesMs: latencies.map((row) => row.latency_ms),
        recentMisses: misses.map((row) => ({ query: row.query, surface: row.surface, at: row.created_at })),
      }
    },
    async trim(workspaceId, bounds) {
      requireId(workspaceId, 'workspace id')
      const { before, keepNewest, limit } = requireTrimBounds(bounds)
      const edge =
        keepNewest === null
          ? undefined
          : await ofWorkspace(workspaceId)
              .select(['created_at', 'id'])
              .orderBy('created_at', 'desc')
              .orderBy('id', 'desc')
              .limit(1)
              .offset(keepNewest)
              .executeTakeFirst()
      if (before === null && edge === undefined) return 0
      return scope.write(async (tx) => {
        const victims = tx
          .selectFrom('search_log')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where(outsideBounds(before, edge && { createdAt: edge.created_at, tiebreak: edge.id }, 'id'))
          .limit(limit)
        const result = await tx.deleteFrom('search_log').where('id', 'in', victims).executeTakeFirst()
        return Number(result.numDeletedRows)
      })
    },
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
