import type { ThreadWriteLock } from '../engine/sqlite/thread-write-lock'
import type { StoreRunLock } from '../engine/store-run-lock'
import type { StoreContext, VectorSupport } from '../kernel/context'
import type { FullTextSearch, VectorIndex } from '../search/types'
import type { Repositories } from './repositories'

export type { StoreContext, VectorSupport } from '../kernel/context'

/** Events the store reports through the injected `log` option. */
export type StoreLogEvent =
  | { kind: 'open'; path: string; schemaVersion: number; migrated: readonly string[]; vectors: VectorSupport }
  | { kind: 'vector-fallback'; reason: string }
  | { kind: 'close'; path: string }

export type StoreLog = (event: StoreLogEvent) => void

/** The database engine behind a store. */
export type StoreBackend = 'sqlite' | 'postgres'

export interface OpenStoreOptions {
  /** Path of the SQLite file; parent directories are created. `:memory:` works but cannot `fork()`. */
  readonly path: string
  /** Injected clock; decay, recency and timestamps read it. @default () => new Date() */
  readonly clock?: () => Date
  /** Injected id source for public ids (messages, notes). @default 21-char random ids */
  readonly newId?: () => string
  readonly log?: StoreLog
  /** Set false to skip loading sqlite-vec (tests of the fallback path). @default true */
  readonly loadVectorExtension?: boolean
  /** Most vectors the JS fallback scans per query. @default 5000 */
  readonly embeddingMaxScan?: number
  /**
   * Shared with connections in other threads of this process (a dream worker): write transactions take
   * it first, so those threads wait for each other asynchronously rather than in SQLite's busy handler.
   */
  readonly threadWriteLock?: ThreadWriteLock
}

/** A connection-bound view: typed repositories, full-text and vector search over one connection. */
export type StoreScope = Repositories & {
  /** FTS5 search over messages, chunks, episodes, procedures and notes. */
  readonly fullText: FullTextSearch
  /** Vector storage and nearest-neighbour search (sqlite-vec, or a capped JS cosine scan). */
  readonly vectors: VectorIndex
}

interface StoreInfoBase {
  readonly backend: StoreBackend
  /** Where the data lives: the SQLite file, or the PostgreSQL server, database and schema (no password). */
  readonly location: string
  /** The engine's version: SQLite's, or the PostgreSQL server's. */
  readonly version: string
  readonly schemaVersion: number
  readonly vectors: VectorSupport
}

export interface SqliteStoreInfo extends StoreInfoBase {
  readonly backend: 'sqlite'
  readonly path: string
  readonly sqliteVersion: string
  readonly journalMode: string
}

export interface PostgresStoreInfo extends StoreInfoBase {
  readonly backend: 'postgres'
  /** `server_version`, e.g. `15.14 (Debian 15.14-0+deb12u1)`. */
  readonly serverVersion: string
  readonly pgvectorVersion: string
  /** The schema holding HyMem's tables. */
  readonly schema: string
}

/** What `store.info()` reports; switch on `backend` for the engine-specific fields. */
export type StoreInfo = SqliteStoreInfo | PostgresStoreInfo

/** An open HyMem database, on either backend. */
export type Store = StoreScope & {
  readonly backend: StoreBackend
  /** Where the data lives, for logs and `doctor` (never a password). */
  readonly location: string
  readonly context: StoreContext
  /**
   * Runs `fn` in a transaction (SQLite: `BEGIN IMMEDIATE` on this connection), committing when it resolves
   * and rolling back when it throws. Use only the `tx` handed in: on SQLite and PGlite the store's own calls wait
   * until the transaction ends.
   */
  transaction<T>(fn: (tx: StoreScope) => Promise<T>): Promise<T>
  /** SQLite reads it from the open file (after `close()` it throws CLOSED); PostgreSQL's is kept from opening. */
  info(): StoreInfo
  /**
   * The advisory dream lock (SQLite: a `run_lock` row, stale takeover after 5 minutes on the store clock;
   * PostgreSQL: a session-level advisory lock, released at once when its holder's connection ends). Each call
   * may wait for the connection, so do not await one inside `transaction()`.
   */
  readonly runLock: StoreRunLock
  /** A second connection to the same database, with the same clock, ids and log (background dreaming uses it). */
  fork(): Store
  /** Idempotent. Afterwards every repository call rejects with `StoreError('CLOSED')` naming the store. */
  close(): Promise<void>
}

/** A store on one SQLite file: one connection; `fork()` opens another to the same file. */
export interface SqliteStore extends Store {
  readonly backend: 'sqlite'
  readonly path: string
  info(): SqliteStoreInfo
  fork(): SqliteStore
}
