import type { Kysely } from 'kysely'
import type { Repositories } from '../repositories'
import type { HyMemDatabase } from '../schema/tables'
import type { FullTextSearch, VectorIndex } from '../search/types'
import type { StoreRunLock } from './store-run-lock'
import type { ThreadWriteLock } from './thread-write-lock'

/** Events the store reports through the injected `log` option. */
export type StoreLogEvent =
  | { kind: 'open'; path: string; schemaVersion: number; migrated: readonly string[]; vectors: VectorSupport }
  | { kind: 'vector-fallback'; reason: string }
  | { kind: 'close'; path: string }

export type StoreLog = (event: StoreLogEvent) => void

/** Which vector search path is active: the sqlite-vec extension, or a capped JS cosine scan. */
export interface VectorSupport {
  readonly mode: 'sqlite-vec' | 'js-scan'
  readonly version: string | null
  /** Why sqlite-vec is not in use, when it is not. */
  readonly reason: string | null
}

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

/** What every repository gets: time, ids and the executor it runs on. */
export interface StoreContext {
  readonly clock: () => Date
  /** `clock()` as an ISO-8601 UTC string. */
  now(): string
  newId(): string
  readonly vectors: VectorSupport
  readonly embeddingMaxScan: number
}

/** A connection-bound view: the query builder plus typed repositories over it. */
export type StoreScope = Repositories & {
  /** The kysely query builder on this scope's connection (inside a transaction: that transaction). */
  readonly db: Kysely<HyMemDatabase>
  /** FTS5 search over messages, chunks, episodes, procedures and notes. */
  readonly fullText: FullTextSearch
  /** Vector storage and nearest-neighbour search (sqlite-vec, or a capped JS cosine scan). */
  readonly vectors: VectorIndex
}

export interface StoreInfo {
  readonly path: string
  readonly sqliteVersion: string
  readonly schemaVersion: number
  readonly journalMode: string
  readonly vectors: VectorSupport
}

/** An open HyMem database. One connection; `fork()` opens another to the same file. */
export type Store = StoreScope & {
  readonly path: string
  readonly context: StoreContext
  /**
   * Runs `fn` in a `BEGIN IMMEDIATE` transaction on this connection, committing when it resolves and
   * rolling back when it throws. Use only the `tx` handed in: `store.db` waits until the transaction ends.
   */
  transaction<T>(fn: (tx: StoreScope) => Promise<T>): Promise<T>
  info(): StoreInfo
  /**
   * The advisory dream lock on this connection (stale takeover after 5 minutes, the store clock). Each call
   * waits for the connection, so do not await one inside `transaction()`.
   */
  readonly runLock: StoreRunLock
  /** A second connection to the same file, with the same clock, ids and log (background dreaming uses it). */
  fork(): Store
  close(): Promise<void>
}
