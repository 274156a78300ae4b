import type { MigrationProgress } from '../engine/migrations'
import type { StoreRunLock } from '../engine/store-run-lock'
import type { StoreBackend, StoreInfo } from '../engine/types'
import type { StoreContext, VectorSupport } from '../kernel/context'
import type { FullTextSearch, VectorIndex } from '../search/types'
import type { Repositories } from './repositories'

export type { StoreContext, VectorSupport } from '../kernel/context'

/** Events the store reports through the injected `log` option. */
export type StoreLogEvent =
  | { kind: 'open'; path: string; schemaVersion: number; migrated: readonly string[]; vectors: VectorSupport }
  | { kind: 'vector-fallback'; reason: string }
  /** A migration working through the rows already stored (from `done: 0` to `done: total`). */
  | ({ kind: 'upgrade' } & MigrationProgress)
  | { kind: 'close'; path: string }

export type StoreLog = (event: StoreLogEvent) => void

export type { PostgresStoreInfo, SqliteStoreInfo, StoreBackend, StoreInfo } from '../engine/types'

/** A connection-bound view: typed repositories, full-text and vector search over one connection. */
export type StoreScope = Repositories & {
  /** FTS5 search over messages, chunks, episodes, procedures and notes. */
  readonly fullText: FullTextSearch
  /** Vector storage and nearest-neighbour search (sqlite-vec, or a capped JS cosine scan). */
  readonly vectors: VectorIndex
}

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
