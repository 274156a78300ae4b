import type { Store } from '@hymem/core-store'
import type { EmbeddingClient, Extractor } from '@hymem/extraction'
import type { DreamConfig } from './config'
import type { LLMResponseCache } from './llm-cache'

/** The steps of a cycle, in the order they run. */
export type DreamPhase =
  | 'chunk'
  | 'extract'
  | 'sessions'
  | 'profile'
  | 'insights'
  | 'decay'
  | 'inference'
  | 'retention'
  | 'passages'
  | 'topics'
  | 'embed'

/** Progress of a running cycle, reported through `onProgress`. */
export type DreamProgressEvent =
  | { readonly kind: 'phase-start'; readonly phase: DreamPhase }
  | {
      readonly kind: 'phase-end'
      readonly phase: DreamPhase
      readonly ms: number
      readonly counts: Readonly<Record<string, number>>
    }
  /** A chunk's extraction results were committed (`index` is 1-based). */
  | { readonly kind: 'chunk'; readonly index: number; readonly total: number; readonly chunkId: number }
  /** A session's episodes, procedures and summary were committed (`index` is 1-based). */
  | { readonly kind: 'session'; readonly index: number; readonly total: number; readonly sessionId: string }

/** Where the two managed Markdown files of a workspace live. */
export interface DreamMarkdownPaths {
  readonly userMdPath: string
  readonly memoryMdPath: string
}

/** Options of {@link dream}. */
export interface DreamOptions {
  readonly store: Store
  readonly workspaceId: string
  readonly extractor: Extractor
  /** Without one, the embedding step is skipped. */
  readonly embeddings?: EmbeddingClient
  /** Chunks extracted this cycle. @default config.dreamBudget (50) */
  readonly budget?: number
  /** Checked between steps and between chunks; an aborted cycle keeps what it committed. */
  readonly signal?: AbortSignal
  readonly onProgress?: (event: DreamProgressEvent) => void
  /** Extraction calls in flight at once. @default config.concurrency (4) */
  readonly concurrency?: number
  /** The response cache wrapping the extractor's LLM, when there is one: its hits are reported. */
  readonly llmCache?: LLMResponseCache
  /**
   * Where USER.md's profile and MEMORY.md's insights sections are written. null writes no file: the rows are
   * the truth and `renderManagedMarkdown` renders the sections when read (PostgreSQL without a mirror).
   */
  readonly markdown: DreamMarkdownPaths | null
  readonly config?: Partial<DreamConfig>
  /** Identifies this process in the lock table. @default `dream:<pid>:<random>` */
  readonly holderId?: string
  /**
   * Awaited at every checkpoint between two committed units of work (a chunk, a session, a batch): a
   * background runner waits there while the work it shares the machine with comes first (hymem's dream
   * worker waits while the thread serving requests is behind).
   */
  readonly pace?: () => Promise<void>
}

/** Outcome of one dreaming cycle (also recorded in `dream_runs`). */
export interface DreamReport {
  readonly status: 'ok' | 'skipped' | 'failed' | 'aborted'
  /** Why the cycle did not run, e.g. `locked`. */
  readonly skipReason: string | null
  /** The `dream_runs` row. */
  readonly runId: number
  readonly workspaceId: string
  readonly extractor: string
  readonly promptVersion: string
  readonly chunksCreated: number
  readonly chunksProcessed: number
  /** Chunks still waiting for extraction after this cycle. */
  readonly chunksPending: number
  readonly edgesUpserted: number
  readonly llmCalls: number
  readonly promptTokens: number
  readonly completionTokens: number
  /** Everything else that was counted, by name (e.g. `episodes`, `edgesRetracted`, `llmCacheHits`). */
  readonly counts: Readonly<Record<string, number>>
  /** Milliseconds per phase, plus `total`. */
  readonly timings: Readonly<Record<string, number>>
  /** One line per failed step or chunk; a failed chunk is retried by the next cycle. */
  readonly errors: readonly string[]
}
