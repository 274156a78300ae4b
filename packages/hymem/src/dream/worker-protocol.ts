import type { DreamConfig, DreamProgressEvent, DreamReport } from '@hymem/dreaming'
import type { HyMemConfig } from '../config/types'
import type { HyMemLogEvent } from '../log'

/** The settings a dream worker rebuilds its LLM and embedding clients from (a `HyMemConfig` has them). */
export type DreamWorkerClients = Pick<HyMemConfig, 'llm' | 'embedding'>

/**
 * What a dream worker is built from (its `workerData`): plain data only, since it crosses into the thread.
 * The worker rebuilds the extractor and the embedder from `clients`, as `createHyMemFromConfig` would.
 */
export interface DreamWorkerData {
  readonly databasePath: string
  /** A PostgreSQL server's URL (the worker opens its own pool on it); null: the SQLite file `databasePath`. */
  readonly databaseUrl: string | null
  /** SQLite: the buffer of the facade's thread write lock (the worker joins it with the background priority). */
  readonly writeLock: SharedArrayBuffer | null
  /** Where the Markdown files live (see `markdownPathsFor`). */
  readonly root: string
  /** Whether dreams write USER.md / MEMORY.md (false on PostgreSQL without a mirror). */
  readonly markdownFiles: boolean
  /** The facade's default workspace (its Markdown files sit directly under `root`). */
  readonly workspaceId: string
  readonly promptVersion: string | null
  readonly dream: Partial<DreamConfig>
  readonly clients: DreamWorkerClients
  /** The dream-lock holder of every worker of one host, so a restarted worker takes a crashed one's locks. */
  readonly holderId: string
  /** The request thread's heartbeat (see request-heartbeat.ts): dreams wait at checkpoints while it is stale. */
  readonly heartbeat: SharedArrayBuffer
}

/** Messages from the host to the worker. */
export type HostMessage =
  | { readonly type: 'dream'; readonly id: number; readonly workspaceId: string; readonly budget?: number }
  | { readonly type: 'abort'; readonly id: number }
  | { readonly type: 'close' }

/** A failure, as it crosses the thread boundary. */
export interface WireError {
  readonly name: string
  readonly message: string
  readonly code?: string
}

/** Messages from the worker to the host. */
export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'progress'; readonly id: number; readonly event: DreamProgressEvent }
  | { readonly type: 'done'; readonly id: number; readonly report: DreamReport }
  | { readonly type: 'failed'; readonly id: number; readonly error: WireError }
  | { readonly type: 'log'; readonly event: HyMemLogEvent }
  | { readonly type: 'closed' }

export function toWireError(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) }
  const code = (error as { code?: unknown }).code
  return { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) }
}
