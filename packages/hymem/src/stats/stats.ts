import type { HyMemDatabase, Store } from '@hymem/core-store'
import type { DreamHistoryEntry, HyMemStats, SearchLogStats } from './types'

/** Tables counted by `stats()`, all scoped by `workspace_id`. */
const COUNTED = [
  'peers',
  'sessions',
  'messages',
  'chunks',
  'knowledge_graph',
  'kg_evidence',
  'entity_aliases',
  'entity_types',
  'behavioral_markers',
  'profile_entries',
  'episodes',
  'procedures',
  'notes',
  'chunk_embeddings',
  'note_embeddings',
  'episode_embeddings',
  'extraction_feedback',
  'dream_runs',
  'search_log',
] as const satisfies readonly (keyof HyMemDatabase)[]

const DREAM_HISTORY = 10
const RECENT_MISSES = 10
/** Searches whose latency percentiles are computed (the most recent). */
const LATENCY_WINDOW = 10_000

/** Table counts, note and edge states, dream history and search-log figures of one workspace. */
export async function collectStats(store: Store, workspaceId: string): Promise<HyMemStats> {
  const counts: Record<string, number> = {}
  for (const table of COUNTED) {
    const row = await store.db
      .selectFrom(table)
      .where('workspace_id', '=', workspaceId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    counts[table] = Number(row.n)
  }

  const noteStates = await store.db
    .selectFrom('notes')
    .where('workspace_id', '=', workspaceId)
    .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.count<number>('archived_at').as('archived')])
    .executeTakeFirstOrThrow()
  const edgeStates = await store.db
    .selectFrom('knowledge_graph')
    .where('workspace_id', '=', workspaceId)
    .select(['status', 'derived', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['status', 'derived'])
    .execute()
  const edges = { active: 0, stale: 0, retracted: 0, derived: 0 }
  for (const row of edgeStates) {
    if (row.derived) edges.derived += Number(row.n)
    else edges[row.status] += Number(row.n)
  }

  const indexes = await store.db
    .selectFrom('vector_indexes')
    .select(['name', 'model', 'dimensions'])
    .execute()
  return {
    workspaceId,
    counts,
    notes: {
      active: Number(noteStates.total) - Number(noteStates.archived),
      archived: Number(noteStates.archived),
    },
    edges,
    dreams: await dreamHistory(store, workspaceId),
    search: await searchStats(store, workspaceId),
    vectors: { mode: store.vectors.mode, indexes },
  }
}

async function dreamHistory(store: Store, workspaceId: string): Promise<DreamHistoryEntry[]> {
  const rows = await store.db
    .selectFrom('dream_runs')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('id', 'desc')
    .limit(DREAM_HISTORY)
    .execute()
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    skipReason: row.skip_reason,
    extractor: row.extractor,
    chunksProcessed: row.chunks_processed,
    edgesUpserted: row.edges_upserted,
    llmCalls: row.llm_calls,
    promptTokens: row.prompt_tokens,
    completionTokens: row.completion_tokens,
    errors: countErrors(row.errors),
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    ms: row.finished_at ? Date.parse(row.finished_at) - Date.parse(row.started_at) : null,
  }))
}

function countErrors(text: string): number {
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? value.length : 0
  } catch {
    return 0
  }
}

async function searchStats(store: Store, workspaceId: string): Promise<SearchLogStats> {
  const totals = await store.db
    .selectFrom('search_log')
    .where('workspace_id', '=', workspaceId)
    .select((eb) => [
      eb.fn.countAll<number>().as('searches'),
      eb.fn.sum<number>(eb.case().when('hits', '=', 0).then(1).else(0).end()).as('empty'),
      eb.fn.avg<number>('hits').as('avgHits'),
      eb.fn.avg<number>('top_score').as('avgTopScore'),
    ])
    .executeTakeFirstOrThrow()
  const surfaces = await store.db
    .selectFrom('search_log')
    .where('workspace_id', '=', workspaceId)
    .select(['surface', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('surface')
    .execute()
  const latencies = (
    await store.db
      .selectFrom('search_log')
      .where('workspace_id', '=', workspaceId)
      .select('latency_ms')
      .orderBy('id', 'desc')
      .limit(LATENCY_WINDOW)
      .execute()
  )
    .map((row) => row.latency_ms)
    .sort((a, b) => a - b)
  const misses = await store.db
    .selectFrom('search_log')
    .where('workspace_id', '=', workspaceId)
    .where('hits', '=', 0)
    .select(['query', 'surface', 'created_at'])
    .orderBy('id', 'desc')
    .limit(RECENT_MISSES)
    .execute()
  const searches = Number(totals.searches)
  return {
    searches,
    emptyRate: searches === 0 ? 0 : Number(totals.empty ?? 0) / searches,
    avgHits: searches === 0 ? 0 : Number(totals.avgHits ?? 0),
    avgTopScore: totals.avgTopScore === null ? null : Number(totals.avgTopScore),
    latencyMs: { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95) },
    bySurface: Object.fromEntries(surfaces.map((row) => [row.surface, Number(row.n)])),
    recentMisses: misses.map((row) => ({ query: row.query, surface: row.surface, at: row.created_at })),
  }
}

/** Nearest-rank percentile of sorted values (null when empty). */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)))
  return sorted[rank - 1] ?? null
}
