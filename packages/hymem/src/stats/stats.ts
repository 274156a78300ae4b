import type { Store } from '@hymem/core-store'
import type { DreamConfig } from '@hymem/dreaming'
import type { DreamHistoryEntry, HyMemStats, SearchLogStats } from './types'

const DREAM_HISTORY = 10
const RECENT_MISSES = 10
const RECENT_DELETIONS = 10
/** Searches whose latency percentiles are computed (the most recent). */
const LATENCY_WINDOW = 10_000

/** Table counts, note and edge states, dream history and search-log figures of one workspace. */
export async function collectStats(
  store: Store,
  workspaceId: string,
  config: DreamConfig,
): Promise<Omit<HyMemStats, 'runtime'>> {
  const counts = await store.workspaces.counts(workspaceId)
  const notes = await store.notes.countByState(workspaceId)
  const edges = await store.edges.countByState(workspaceId)
  const pins = await store.vectors.pins()
  const search = await searchStats(store, workspaceId)
  return {
    workspaceId,
    counts,
    notes,
    edges,
    dreams: await dreamHistory(store, workspaceId),
    search,
    retention: {
      searchLog: {
        rows: search.searches,
        maxRows: config.searchLogMaxRows,
        maxAgeDays: config.searchLogRetentionDays,
      },
      llmCache: {
        rows: await store.llmCache.count(),
        maxRows: config.llmCacheMaxRows,
        maxAgeDays: config.llmCacheRetentionDays,
      },
    },
    deletions: await store.purges.recent(workspaceId, RECENT_DELETIONS),
    vectors: {
      mode: store.vectors.mode,
      indexes: pins.map((pin) => ({ name: pin.index, model: pin.model, dimensions: pin.dimensions })),
    },
  }
}

async function dreamHistory(store: Store, workspaceId: string): Promise<DreamHistoryEntry[]> {
  const runs = await store.dreamRuns.recent(workspaceId, DREAM_HISTORY)
  return runs.map((run) => ({
    id: run.id,
    status: run.status,
    skipReason: run.skipReason,
    extractor: run.extractor,
    chunksProcessed: run.chunksProcessed,
    edgesUpserted: run.edgesUpserted,
    llmCalls: run.llmCalls,
    promptTokens: run.promptTokens,
    completionTokens: run.completionTokens,
    errors: run.errors.length,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    ms: run.finishedAt ? Date.parse(run.finishedAt) - Date.parse(run.startedAt) : null,
  }))
}

async function searchStats(store: Store, workspaceId: string): Promise<SearchLogStats> {
  const summary = await store.searchLog.summary(workspaceId, {
    latencyWindow: LATENCY_WINDOW,
    recentMisses: RECENT_MISSES,
  })
  const latencies = [...summary.latenciesMs].sort((a, b) => a - b)
  return {
    searches: summary.searches,
    emptyRate: summary.searches === 0 ? 0 : summary.empty / summary.searches,
    avgHits: summary.avgHits,
    avgTopScore: summary.avgTopScore,
    latencyMs: { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95) },
    bySurface: summary.bySurface,
    recentMisses: summary.recentMisses,
  }
}

/** Nearest-rank percentile of sorted values (null when empty). */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)))
  return sorted[rank - 1] ?? null
}
