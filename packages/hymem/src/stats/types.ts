import type { Purge, VectorSupport } from '@hymem/core-store'
import type { RuntimeStatus } from '../runtime/types'

/** One row of the dream history. */
export interface DreamHistoryEntry {
  readonly id: number
  readonly status: string
  readonly skipReason: string | null
  readonly extractor: string | null
  readonly chunksProcessed: number
  readonly edgesUpserted: number
  readonly llmCalls: number
  readonly promptTokens: number
  readonly completionTokens: number
  readonly errors: number
  readonly startedAt: string
  readonly finishedAt: string | null
  /** Wall time in ms, when finished. */
  readonly ms: number | null
}

/** Figures over `search_log` (notes searches and augment calls). */
export interface SearchLogStats {
  readonly searches: number
  /** Share of searches that returned nothing (0..1; 0 when there were none). */
  readonly emptyRate: number
  readonly avgHits: number
  /** Mean best score of searches with a score, or null. */
  readonly avgTopScore: number | null
  readonly latencyMs: { readonly p50: number | null; readonly p95: number | null }
  /** By surface (`notes`, `augment`, ...). */
  readonly bySurface: Record<string, number>
  /** The most recent queries that returned nothing, newest first. */
  readonly recentMisses: readonly { readonly query: string; readonly surface: string; readonly at: string }[]
}

/** A log that dreams keep bounded: its rows now and the bounds it is trimmed to (0: unbounded). */
export interface BoundedLogStats {
  readonly rows: number
  readonly maxRows: number
  readonly maxAgeDays: number
}

/** What `stats()` reports for one workspace. */
export interface HyMemStats {
  readonly workspaceId: string
  /** Row counts per table (scoped to the workspace where the table is). */
  readonly counts: Record<string, number>
  readonly notes: { readonly active: number; readonly archived: number }
  readonly edges: {
    readonly active: number
    readonly stale: number
    readonly retracted: number
    readonly derived: number
  }
  /** Most recent dreams first. */
  readonly dreams: readonly DreamHistoryEntry[]
  readonly search: SearchLogStats
  /** The workspace's search log and the shared LLM response cache, against their retention bounds. */
  readonly retention: { readonly searchLog: BoundedLogStats; readonly llmCache: BoundedLogStats }
  /** The most recent deletion receipts (counts by kind, never content), newest first. */
  readonly deletions: readonly Purge[]
  readonly vectors: {
    readonly mode: VectorSupport['mode']
    readonly indexes: readonly {
      readonly name: string
      readonly model: string
      readonly dimensions: number
    }[]
  }
  /** This thread's event-loop delay and where the facade's dreams run (not stored: live figures). */
  readonly runtime: RuntimeStatus
}
