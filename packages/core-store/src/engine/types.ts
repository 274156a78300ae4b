import type Database from 'better-sqlite3'
import type { Kysely, RawBuilder } from 'kysely'
import type { FilterDialect } from '../filter/translate'
import type { StoreContext, VectorSupport } from '../kernel/context'
import type { HyMemDatabase } from '../kernel/tables'
import type { VectorIndex } from '../search/types'

/** The database engine behind a store. */
export type StoreBackend = 'sqlite' | 'postgres'

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

/**
 * SQLite's prepared statements, reused by SQL text (see `engine/sqlite/statement-cache.ts`). Only code in
 * `engine/sqlite/` holds them.
 */
export interface StatementCache {
  prepare(sql: string): Database.Statement
  /** True while the connection is inside a transaction. */
  readonly inTransaction: boolean
}

/** How a scope reaches its connection: built once per scope by the store that opens it. */
export interface RepositoryOptions {
  /** The engine the scope runs on. */
  readonly engine: StoreEngine
  /** True for the scope handed to `store.transaction(fn)`: writes then join that transaction. */
  readonly inTransaction: boolean
  /** Taken before `BEGIN IMMEDIATE` when the store has a thread write lock (see `ThreadWriteLock`). */
  readonly writeTurn?: () => Promise<() => void>
}

/** Internal: how repositories reach the connection. */
export interface RepositoryScope {
  readonly db: Kysely<HyMemDatabase>
  readonly context: StoreContext
  /**
   * Runs `fn` in one write transaction holding the connection (or inside the caller's transaction). `fn`
   * receives the kysely instance bound to that connection.
   */
  write<T>(fn: (db: Kysely<HyMemDatabase>) => Promise<T> | T): Promise<T>
  /** Runs `fn` while holding the connection, so raw statements never interleave with a transaction. */
  read<T>(fn: () => T): Promise<T>
  /** Every SQL difference between engines that the kysely builder cannot hide. */
  readonly engine: StoreEngine
}

/** What a purge's compaction did: the indexes or tables it rewrote, and whether the log was emptied. */
export interface Compaction {
  readonly optimized: string[]
  readonly checkpointed: boolean
}

/**
 * The one seam between the portable repositories and a SQL engine. The kysely builder already compiles
 * placeholders, quoting, `ON CONFLICT` and `RETURNING` for each dialect; these are the differences it cannot
 * hide. Each engine implements it once, in `engine/sqlite/engine.ts` and `engine/postgres/engine.ts`; nothing
 * outside `engine/` asks which engine it runs on.
 */
export interface StoreEngine {
  /** For logs, `doctor` and `store.backend`; never branch on it outside `engine/`. */
  readonly name: StoreBackend
  /**
   * Orders rows by insertion, for tables without an integer key: SQLite's implicit `rowid`, the `seq`
   * identity column that every such table has on PostgreSQL.
   */
  readonly insertionOrder: RawBuilder<number>
  /** {@link insertionOrder} of one table, qualified (for joins). */
  insertionOrderOf(table: string): RawBuilder<unknown>
  /**
   * True where a read-then-write needs `SELECT … FOR UPDATE` to be race-free (PostgreSQL, where write
   * transactions run concurrently). SQLite's `BEGIN IMMEDIATE` already serialises writers, and rejects the
   * clause. Use it as `query.$if(scope.engine.rowLocks, (q) => q.forUpdate())`.
   */
  readonly rowLocks: boolean
  /** The `write`/`read` guards of a repository scope on this engine. */
  guards(db: Kysely<HyMemDatabase>, options: RepositoryOptions): Pick<RepositoryScope, 'write' | 'read'>
  /** How a `Filter` becomes SQL on this engine. */
  readonly filter: FilterDialect
  /**
   * `column`, kept off the indexes that start with it where the planner needs that (SQLite's `+column`, so
   * a lookup by primary key stays one instead of scanning a workspace through a `workspace_id` index).
   */
  notIndexed(column: string): RawBuilder<string>
  /** `column` is one of `ids`, bound as one parameter for any number of them. */
  inIdList(column: string, ids: readonly (number | string)[]): RawBuilder<boolean>
  /** A row source of `values` with one text column `value`, bound as one parameter. */
  textRows(values: readonly string[]): RawBuilder<unknown>
  /** A row source of pairs with text columns `a` and `b`, bound as one parameter each side. */
  pairRows(pairs: readonly (readonly [string, string])[]): RawBuilder<unknown>
  /** A join that keeps the written order where the engine allows it (the short list drives). */
  orderedJoin(): RawBuilder<unknown>
  /** `LIMIT` with no limit, for a query that needs `OFFSET` alone. */
  noLimit(): RawBuilder<unknown>
  /** A boolean setting `key` of the JSON column `column` as 1, 0 or NULL (unset). */
  jsonFlag(column: RawBuilder<unknown>, key: string): RawBuilder<number>
  /** A JSON object of the given keys and SQL values. */
  jsonObject(entries: readonly (readonly [string, RawBuilder<unknown>])[]): RawBuilder<unknown>
  /** `FROM kg_evidence e … JOIN messages m`: each evidence row joined to the messages its `message_ids` name. */
  readonly evidenceMessages: RawBuilder<unknown>
  /** True where `processed_chunks` carries the workspace (PostgreSQL, for sharding). */
  readonly processedChunksHaveWorkspace: boolean
  /** Whether a message or note of the workspace still holds `word` in its full-text index (stems match). */
  fullTextHolds(db: Kysely<HyMemDatabase>, workspaceId: string, word: string): Promise<boolean>
  /** The vector index inside a transaction on `executor` (a purge's cascade runs with it). */
  vectorsIn(executor: Kysely<HyMemDatabase>, context: StoreContext): VectorIndex
  /** Removes a workspace's vectors that live outside its rows (SQLite's vec0 tables), inside `write`. */
  removeWorkspaceVectors(context: StoreContext, workspaceId: string): void
  /** Takes forgotten content out of the files (or tables) after a purge removed its rows. */
  compact(
    scope: RepositoryScope,
    removed: Readonly<Record<string, number>>,
    everything: boolean,
  ): Promise<Compaction>
}
