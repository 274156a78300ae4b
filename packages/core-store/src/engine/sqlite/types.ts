import type { SqliteStoreInfo, Store, StoreLog } from '../../store/types'
import type { ThreadWriteLock } from './thread-write-lock'

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

/** A store on one SQLite file: one connection; `fork()` opens another to the same file. */
export interface SqliteStore extends Store {
  readonly backend: 'sqlite'
  readonly path: string
  info(): SqliteStoreInfo
  fork(): SqliteStore
}
