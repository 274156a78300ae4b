import type { Message, NewMessage, Store } from '@hymem/core-store'
import type { DreamConfig, DreamProgressEvent, DreamReport, ProfileData } from '@hymem/dreaming'
import type { EmbeddingClient, Extractor, LLMClient } from '@hymem/extraction'
import type { AugmentedContext, AugmentOptions, Conflict, QueryConfig } from '@hymem/query'
import type { DatabaseOption } from './database/database-option'
import type { HyMemQueue } from './dream/queue-types'
import type { DreamWorkerClients } from './dream/worker-protocol'
import type { HyMemErase } from './forget/types'
import type { AliasResult } from './graph/alias'
import type { EntityHistory } from './history/types'
import type { HyMemInspect } from './inspect/types'
import type { HyMemLog } from './log'
import type { LogStreamResult, SessionBatch } from './log-stream-types'
import type { HyMemNotes, NotesConfig } from './notes/types'
import type {
  ConclusionRecords,
  HyMemRecords,
  HyMemSessions,
  MessageRecords,
  PeerCardRecords,
  PeerRecords,
  ScopeRecords,
  WorkspaceRecords,
} from './records/types'
import type { RuntimeStatus } from './runtime/types'
import type { HyMemStats } from './stats/types'
import type { ImportReport, ReindexProgressEvent, ReindexReport } from './transfer/types'

/** Options of `createHyMem`. Every field is optional: the defaults run offline with no key. */
export interface HyMemOptions {
  /** Folder for hymem.sqlite + MEMORY.md + USER.md (HYMEM_ROOT). @default ~/.hermes */
  readonly root?: string
  /** SQLite path (when `database` is unset). @default `${root}/hymem.sqlite` */
  readonly databasePath?: string
  /**
   * The database when it is not the SQLite file (HYMEM_DATABASE_URL): `postgres://user:pw@host/db` (or
   * `postgresql://`) for PostgreSQL + pgvector; `pglite:///data/dir` or `pglite:memory` for an in-process
   * PGlite (tests and development, one process per folder); `{ pglite, schema? }` for a PGlite instance you
   * created with the `vector` and `unaccent` extensions (it stays yours). PostgreSQL's driver loads only then.
   * @default the SQLite file `databasePath`
   */
  readonly database?: DatabaseOption
  /**
   * On PostgreSQL, whether dreams also write USER.md / MEMORY.md under `root` as a mirror (the rows stay the
   * truth: reads render them from the rows). SQLite always keeps the files. @default true when `root` is given
   */
  readonly markdownMirror?: boolean
  /** Default workspace for calls that do not name one. @default 'default' */
  readonly workspaceId?: string
  /** LLM for extraction / rerank / chat answers. null → rule-based extraction. @default null */
  readonly llm?: LLMClient | null
  /** Override the extractor (default: LLM extractor when llm is set, else rules). */
  readonly extractor?: Extractor
  /**
   * Vectors for search, notes and dreaming. null → no vectors (keyword + graph + recency).
   * @default an offline embedder shipped in npm: the model the memory's stored vectors were made with, else
   * MiniLM (384-d; the model loads on first use). See `resolveLocalModel`.
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
  /**
   * A store you opened yourself with `@hymem/core-store` (`openStore`, or `openPostgresStore` from
   * `@hymem/core-store/postgres`), for code that also needs the repositories the facade does not offer.
   * `close()` leaves it open: close it after the facade. `database` and `databasePath` are then ignored.
   */
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

type Ws = { readonly workspaceId?: string }

/** Where a memory lives (`memory.database`). */
export interface HyMemDatabase {
  readonly backend: Store['backend']
  /** The SQLite file, or the PostgreSQL server, database and schema (no password). */
  readonly location: string
}

/** Options of {@link HyMem.augment}: the query options with the workspace optional. USER.md/MEMORY.md are read from the workspace's files unless given. */
export type HyMemAugmentOptions = Omit<AugmentOptions, 'workspaceId'> & Ws

/** The HyMem facade: log conversations, dream over them, augment prompts, keep explicit notes. */
export interface HyMem {
  /** Which database the memory lives in, for logs and `doctor` (never a password). */
  readonly database: HyMemDatabase
  readonly root: string
  /** The default workspace. */
  readonly workspaceId: string
  /** `.name` is 'rules' or 'llm:<model>'. */
  readonly extractor: Extractor
  readonly llm: LLMClient | null
  readonly embeddings: EmbeddingClient | null
  /** Read-only views for the memory inspector: graph pictures, facts with provenance, history, notes, health. */
  readonly inspect: HyMemInspect
  /** Explicit memories: remember, search, list, archive and restore. */
  readonly notes: HyMemNotes
  /** Forgetting for good (sessions, workspaces, messages, a peer's messages, notes, facts), with receipts. */
  readonly erase: HyMemErase
  /** The dreaming work waiting: backlog, pending workspaces, background dreams. */
  readonly queue: HyMemQueue
  /** Workspace records (metadata, configuration). */
  readonly workspaces: WorkspaceRecords
  /** Session records and their members; `clone` copies a session. */
  readonly sessions: HyMemSessions
  /** Peer records and the profile entries about them. */
  readonly peers: PeerRecords
  readonly peerCards: PeerCardRecords
  readonly scopes: ScopeRecords
  /** Reads and metadata updates of logged messages, and full-text search over them. */
  readonly messages: MessageRecords
  readonly conclusions: ConclusionRecords
  /** USER.md / MEMORY.md of a workspace: under root for the default one, `${root}/workspaces/<id>/` otherwise. */
  markdownPaths(workspaceId?: string): { userMd: string; memoryMd: string }

  log(input: LogInput): Promise<Message>
  /** One transaction per batch. Creates workspace/session/peers/membership as needed. */
  logMessages(sessionId: string, messages: readonly NewMessage[], options?: Ws): Promise<Message[]>
  /**
   * Logs a stream of batches (a big import) in ONE transaction, holding only the current batch: if the
   * stream throws or `signal` aborts, nothing of it is stored.
   *
   * @example
   * await memory.logStream(batchesOf(readLines('year.jsonl')), { signal })
   */
  logStream(
    batches: AsyncIterable<readonly SessionBatch[]>,
    options?: Ws & {
      readonly signal?: AbortSignal
      /** Called after each batch with the running totals. */
      readonly onBatch?: (result: LogStreamResult) => void
    },
  ): Promise<LogStreamResult>
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
  /** Live figures of this thread: event-loop delay (p50/p99/max) and where dreams run and how they fare. */
  runtime(): RuntimeStatus
  /**
   * Loads on this thread what the first logged messages and the first context request would otherwise
   * load while a caller waits (the token counter's o200k tables: about half a second of CPU): a server
   * calls it before it listens, so no request holds the event loop for the loading.
   */
  warmUp(): Promise<void>
  /**
   * Marks one foreground request in flight until the returned function is called: a dream in the worker
   * thread waits at its checkpoints meanwhile (foreground first). A server calls it around every request;
   * without a dream worker it does nothing.
   */
  serving(): () => void
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
  /**
   * The history of an entity's facts, oldest first: supersede chains (`supersededBy` / `supersedes`),
   * retractions, inferred facts, each with its evidence and two clocks — when it became true in the
   * conversation and when HyMem learned it (and in which dream run).
   */
  history(subject: string, options?: Ws): Promise<EntityHistory>

  /**
   * Runs `fn` in one transaction over the records (committed when it resolves, rolled back when it throws).
   * Do not call other facade methods inside: they run outside the transaction and may wait for it.
   */
  transaction<T>(fn: (records: HyMemRecords) => Promise<T>): Promise<T>

  stats(options?: Ws): Promise<HyMemStats>
  /**
   * Streams the memory as JSONL (dump format 2, see the README): every workspace unless one is named, every
   * table that holds memory, and the stored vectors with `withVectors` (otherwise an import re-embeds).
   */
  export(options?: Ws & { readonly withVectors?: boolean }): AsyncIterable<string>
  /**
   * Streams a dump (format 1 or 2) in, in one transaction. Idempotent and merging: existing rows are skipped,
   * so it is safe to re-run and to import into a memory that already holds part of it. Vectors of the
   * configured model are kept; the other new rows are embedded with it.
   */
  import(lines: AsyncIterable<string> | Iterable<string>): Promise<ImportReport>
  /**
   * Rebuilds the full-text index, then re-embeds everything with the configured model and re-pins the vector
   * indexes in one transaction (without an embedding client, the full-text index only).
   */
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
