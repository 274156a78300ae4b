import type { StoreLog, StoreLogEvent } from '@hymem/core-store'
import type { ExtractionLogEvent } from '@hymem/extraction'
import type { LogLevel } from './config/env-schema'

/**
 * Everything the facade reports through its `log` option (never the console). `level` lets apps filter with
 * `HYMEM_LOG_LEVEL`; see {@link filterLog}.
 */
export type HyMemLogEvent =
  /** One-line start-up notices, e.g. that extraction runs on the rule-based extractor. */
  | { readonly kind: 'notice'; readonly level: 'info' | 'warn'; readonly message: string }
  | {
      readonly kind: 'ready'
      readonly level: 'debug'
      readonly databasePath: string
      readonly workspaceId: string
      readonly extractor: string
      readonly embeddings: string | null
    }
  | {
      readonly kind: 'key-check'
      readonly level: 'info' | 'warn'
      readonly url: string
      readonly outcome: 'ok' | 'rejected' | 'unreachable' | 'inconclusive'
      readonly detail: string
    }
  | { readonly kind: 'store'; readonly level: 'debug' | 'info' | 'warn'; readonly event: StoreLogEvent }
  | { readonly kind: 'extraction'; readonly level: 'debug' | 'warn'; readonly event: ExtractionLogEvent }
  | {
      readonly kind: 'dream'
      readonly level: 'info' | 'warn'
      readonly workspaceId: string
      readonly background: boolean
      readonly status: string
      readonly chunksProcessed: number
      readonly edgesUpserted: number
      readonly errors: number
      readonly ms: number
    }
  | {
      readonly kind: 'dream-failed'
      readonly level: 'error'
      readonly workspaceId: string
      readonly background: boolean
      readonly message: string
    }
  /** The dream worker thread crashed (it restarts after `restartInMs`), or was restarted. */
  | {
      readonly kind: 'dream-worker'
      readonly level: 'error' | 'info'
      readonly event: 'crashed' | 'restarted'
      readonly message: string
      readonly restartInMs?: number
    }
  | {
      readonly kind: 'search'
      readonly level: 'debug'
      readonly surface: 'notes' | 'augment'
      readonly workspaceId: string
      readonly hits: number
      readonly ms: number
    }
  | {
      readonly kind: 'note'
      readonly level: 'debug' | 'info'
      readonly action: 'inserted' | 'deduplicated' | 'archived' | 'restored' | 'deleted'
      readonly workspaceId: string
      readonly ids: readonly string[]
    }
  | {
      readonly kind: 'forget'
      readonly level: 'info'
      readonly workspaceId: string
      readonly purgeId: number
      readonly what: string
      readonly status: string
      /** Rows removed by kind (counts only, never content). */
      readonly removed: Readonly<Record<string, number>>
    }
  | {
      readonly kind: 'forget-failed'
      readonly level: 'error'
      readonly purgeId: number
      readonly message: string
    }
  | {
      readonly kind: 'embed-failed'
      readonly level: 'warn'
      readonly what: string
      readonly message: string
    }
  | {
      readonly kind: 'import'
      readonly level: 'info'
      readonly inserted: number
      readonly skipped: number
      readonly embedded: number
    }
  | {
      readonly kind: 'reindex'
      readonly level: 'info'
      /** Rows indexed for full-text search, all tables together. */
      readonly fullTextRows: number
      readonly model: string | null
      readonly dimensions: number
      readonly vectors: number
    }

export type HyMemLog = (event: HyMemLogEvent) => void

const RANK: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 }

/**
 * Wraps a sink so it only receives events at `level` or more severe.
 *
 * @example
 * const log = filterLog(config.logLevel, (e) => console.error(`[hymem] ${e.kind}`, e))
 */
export function filterLog(level: LogLevel, sink: HyMemLog): HyMemLog {
  const max = RANK[level]
  return (event) => {
    if (RANK[event.level] <= max) sink(event)
  }
}

export const _noopLog: HyMemLog = () => {}

/**
 * The store's events as the facade's: a vector fallback warns; an upgrade says `info` when it starts and
 * ends (its batches in between are `debug`); the rest is `debug`.
 */
export function _storeLog(log: HyMemLog): StoreLog {
  return (event) => log({ kind: 'store', level: storeLevel(event), event })
}

function storeLevel(event: StoreLogEvent): 'debug' | 'info' | 'warn' {
  if (event.kind === 'vector-fallback') return 'warn'
  if (event.kind === 'upgrade' && (event.done === 0 || event.done >= event.total)) return 'info'
  return 'debug'
}
