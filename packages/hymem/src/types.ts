import type { Message, NewMessage, Store } from '@hymem/core-store'
import type { DreamConfig, DreamProgressEvent, DreamReport, ProfileData } from '@hymem/dreaming'
import type { EmbeddingClient, Extractor, LLMClient } from '@hymem/extraction'
import type { AugmentedContext, AugmentOptions, Conflict, QueryConfig } from '@hymem/query'
import type { DreamWorkerClients } from './dream/worker-protocol'
import type { AliasResult } from './graph/alias'
import type { HyMemInspect } from './inspect/types'
import type { HyMemLog } from './log'
import type { Note, NoteHit, NotesConfig } from './notes/types'
import type { RuntimeStatus } from './runtime/types'
import type { HyMemStats } from './stats/types'
import type { ImportReport, ReindexProgressEvent, ReindexReport } from './transfer/types'

/** Options of `createHyMem`. Every field is optional: the defaults run offline with no key. */
export interface HyMemOptions {
  /** Folder for hymem.sqlite + MEMORY.md + USER.md (HYMEM_ROOT). @default ~/.hermes */
  readonly root?: string
  /** SQLite path. @default `${root}/hymem.sqlite` */
  readonly databasePath?: string
  /** Default workspace for calls that do not name one. @default 'default' */
  readonly workspaceId?: string
  /** LLM for extraction / rerank / chat answers. null → rule-based extraction. @default null */
  readonly llm?: LLMClient | null
  /** Override the extractor (default: LLM extractor when llm is set, else rules). */
  readonly extractor?: Extractor
  /**
   * Vectors for search, notes and dreaming. null → no vectors (keyword + graph + recency).
   * @default the offline USE-lite embedder (512-d, shipped in npm; the model loads on first use)
   */
  readonly embeddings?: EmbeddingClient | null
  readonly clock?: () => Date
  readonly log?: HyMemLog
  readonly dream?: Partial<DreamConfig>
  readonly query?: Partial<QueryConfig>
  /** De-duplication and search gates of explicit notes. */
  readonly notes?: Partial<NotesConfig>
  /**
   * Where dream cycles (`dream()` and `scheduleDream()`) run: on this thread (`'process'`), or in a worker
   * thread with its own connection (`{ worker }`), so the thread serving requests never waits on a dream.
   * The worker cannot take client objects: it builds its LLM and embedding clients from the `llm` and
   * `embedding` settings of a `HyMemConfig` (pass the same clients as `llm` / `embeddings` for the
   * queries of this thread; `createHyMemFromConfig(config, { dreamIn: 'worker' })` does). Not with a custom
   * `extractor` or `clock`, which cannot cross into the worker. Closing stops a worker's cycles at their
   * next checkpoint. @default 'process'
   */
  readonly dreamIn?: 'process' | { readonly worker: DreamWorkerClients }
  /** Background dreaming cooldown (ms) used by `scheduleDream()`. @default 60_000 */
  readonly dreamCooldownMs?: number
  /** Prompt version handed to the default extractor (bumping it reprocesses every chunk). */
  readonly promptVersion?: string
  /** Set false to keep searches out of `search_log`. @default true */
  readonly searchLog?: boolean
  /** Internal: reuse an open store (fork). `close()` leaves a store passed in here open. */
  readonly store?: Store
}

/** A conversation turn for {@link HyMem.capture}. */
export interface CaptureTurn {
  readonly role: 'user' | 'assistant' | 'system' | 'tool'
  readonly content: string
  /** Peer id of the author; defaults to `user` / `assistant` / `system` / `tool` by role. */
  readonly name?: string
  readonly createdAt?: string
  readonly metadata?: Record<string, unknown>
}

/** Input of {@link HyMem.log}. */
export interface LogInput {
  readonly role: 'user' | 'assistant' | 'system' | 'tool'
  readonly content: string
  /** @default 'default' */
  readonly sessionId?: string
  /** @default the role name */
  readonly peerId?: string
  readonly metadata?: Record<string, unknown>
  readonly createdAt?: string
  readonly workspaceId?: string
}

/** Input of {@link HyMem.remember}. */
export interface RememberInput {
  /** One-line summary used for ranking and de-duplication. */
  readonly description: string
  readonly content: string
  /** Higher survives forgetting longer. @default 1 */
  readonly importance?: number
  readonly observerId?: string
  readonly observedId?: string
  readonly sessionId?: string
  /** @default 'explicit' */
  readonly level?: string
  readonly sourceIds?: readonly string[]
  readonly metadata?: Record<string, unknown>
}

/** Options of {@link HyMem.searchNotes}. */
export interface SearchNotesOptions {
  readonly workspaceId?: string
  /** @default 10 */
  readonly limit?: number
  /** Absolute similarity floor (vector hits only; 0 disables). @default notes.minSimilarity */
  readonly minSimilarity?: number
  /** Drop hits more than this below the best one (0 disables). @default notes.relativeCutoff */
  readonly relativeCutoff?: number
  readonly observerId?: string
  readonly observedId?: string
}

/** Input of {@link HyMem.forget}. */
export interface ForgetInput {
  /** Archive this one note; otherwise sweep stale, unimportant notes. */
  readonly id?: string
  /** Notes not accessed for this many days are stale. @default notes.forgetAfterDays (180) */
  readonly staleDays?: number
  /** Only notes at or below this importance are swept. @default notes.forgetMaxImportance (1) */
  readonly maxImportance?: number
  /** false (default) is a dry run that only reports. */
  readonly apply?: boolean
  /** Most notes listed in the result (the count is always the true total). @default 100 */
  readonly limit?: number
}

/** Result of {@link HyMem.forget}. */
export interface ForgetResult {
  /** How many notes the criteria hit: exactly what `apply` archives (or archived). */
  readonly matched: number
  /** At most `limit` of them, stalest first. */
  readonly notes: Note[]
  readonly applied: boolean
  /** Whether `notes` was cut at `limit`. */
  readonly truncated: boolean
}

/** Pending dreaming work. */
export interface DreamBacklog {
  /** Messages not yet chunked (after each session's last chunked message). */
  readonly pendingMessages: number
  /** Chunks not yet extracted under the current prompt version. */
  readonly pendingChunks: number
  /** Whether a dream of this instance (foreground or background) is running. */
  readonly running: boolean
  /** Sessions with pending messages. */
  readonly sessions: Record<string, { pendingMessages: number }>
}

type Ws = { readonly workspaceId?: string }

/** Options of {@link HyMem.augment}: the query options with the workspace optional. USER.md/MEMORY.md are read from the workspace's files unless given. */
export type HyMemAugmentOptions = Omit<AugmentOptions, 'workspaceId'> & Ws

/** The HyMem facade: log conversations, dream over them, augment prompts, keep explicit notes. */
export interface HyMem {
  /** Escape hatch for servers: the typed repositories, full-text and vector search. */
  readonly store: Store
  readonly root: string
  /** The default workspace. */
  readonly workspaceId: string
  /** `.name` is 'rules' or 'llm:<model>'. */
  readonly extractor: Extractor
  readonly llm: LLMClient | null
  readonly embeddings: EmbeddingClient | null
  /** Read-only views for the memory inspector: graph pictures, facts with provenance, history, notes, health. */
  readonly inspect: HyMemInspect
  /** USER.md / MEMORY.md of a workspace: under root for the default one, `${root}/workspaces/<id>/` otherwise. */
  markdownPaths(workspaceId?: string): { userMd: string; memoryMd: string }

  log(input: LogInput): Promise<Message>
  /** One transaction per batch. Creates workspace/session/peers/membership as needed. */
  logMessages(sessionId: string, messages: readonly NewMessage[], options?: Ws): Promise<Message[]>
  /** Logs a whole conversation in one transaction, optionally dreaming afterwards. */
  capture(
    turns: readonly CaptureTurn[],
    options?: Ws & { readonly sessionId?: string; readonly dream?: boolean },
  ): Promise<{ sessionId: string; messages: Message[]; dream: DreamReport | null }>
  dream(
    options?: Ws & {
      readonly budget?: number
      readonly signal?: AbortSignal
      readonly onProgress?: (event: DreamProgressEvent) => void
    },
  ): Promise<DreamReport>
  /** Background dream with cooldown, on a forked connection (or in the dream worker); never blocks the caller. */
  scheduleDream(workspaceId?: string): void
  dreamBacklog(workspaceId?: string): Promise<DreamBacklog>
  /** Live figures of this thread: event-loop delay (p50/p99/max) and where dreams run and how they fare. */
  runtime(): RuntimeStatus
  augment(message: string, options?: HyMemAugmentOptions): Promise<AugmentedContext>
  profile(options?: Ws): Promise<{ userMd: string; memoryMd: string }>
  /**
   * The profile entries and insights of USER.md / MEMORY.md as typed data (insights with the configured
   * dream thresholds), plus the hand-written text of both files outside dreaming's sections.
   */
  profileData(options?: Ws): Promise<ProfileData>
  /** Folds every reference to `surface` into `canonical` and records the alias (one transaction). */
  alias(surface: string, canonical: string, options?: Ws): Promise<AliasResult>
  retract(
    edge: { subject: string; predicate: string; object: string; reason?: string },
    options?: Ws,
  ): Promise<{ retracted: number }>
  conflicts(options?: Ws): Promise<Conflict[]>

  remember(input: RememberInput, options?: Ws): Promise<{ note: Note; deduplicated: boolean }>
  searchNotes(query: string, options?: SearchNotesOptions): Promise<NoteHit[]>
  /** Archived notes are returned only with `includeArchived`. */
  getNote(id: string, options?: Ws & { readonly includeArchived?: boolean }): Promise<Note | null>
  forget(input: ForgetInput, options?: Ws): Promise<ForgetResult>
  /** Un-archives a note and refreshes its last access; null when no such note. */
  restore(id: string, options?: Ws): Promise<Note | null>
  /** Hard delete; false when no such note. */
  deleteNote(id: string, options?: Ws): Promise<boolean>

  stats(options?: Ws): Promise<HyMemStats>
  /** JSONL lines (no embeddings); every workspace unless one is named. */
  export(options?: Ws): AsyncIterable<string>
  /** Idempotent: existing rows are skipped. Re-embeds notes and edges with the configured model. */
  import(lines: AsyncIterable<string> | Iterable<string>): Promise<ImportReport>
  /** Re-embeds everything with the configured model and re-pins the vector indexes in one transaction. */
  reindex(options?: {
    onProgress?: (event: ReindexProgressEvent) => void
    signal?: AbortSignal
  }): Promise<ReindexReport>
  invalidateQueryCaches(): void
  /** A second facade on a new connection to the same file, sharing clients. */
  fork(): Promise<HyMem>
  /**
   * Waits for an in-flight background dream (in a worker: stops it at its next checkpoint and closes the
   * worker), then closes the store.
   */
  close(): Promise<void>
}
