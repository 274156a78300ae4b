/**
 * Which vector search path is active: the sqlite-vec extension, a capped JS cosine scan (SQLite without
 * the extension), or pgvector on PostgreSQL.
 */
export interface VectorSupport {
  readonly mode: 'sqlite-vec' | 'js-scan' | 'pgvector'
  readonly version: string | null
  /** Why the extension is not in use, when it is not. */
  readonly reason: string | null
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
