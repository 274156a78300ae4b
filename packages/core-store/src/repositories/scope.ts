import { type Kysely, sql } from 'kysely'
import type { StatementCache } from '../engine/sqlite/statement-cache'
import type { StoreContext } from '../kernel/context'
import type { HyMemDatabase } from '../kernel/tables'
import type { RepositoryBackend } from './backend'

/** What a repository needs beyond kysely: the raw statement cache and whether it runs inside a transaction. */
export interface RepositoryOptions {
  /** SQLite's prepared statements. On PostgreSQL every call throws: give such a repository an override. */
  readonly statements: StatementCache
  /** True for the scope handed to `store.transaction(fn)`: writes then join that transaction. */
  readonly inTransaction: boolean
  /** The engine the scope runs on. @default SQLite */
  readonly backend?: RepositoryBackend
  /** Taken before `BEGIN IMMEDIATE` when the store has a thread write lock (see `ThreadWriteLock`). */
  readonly writeTurn?: () => Promise<() => void>
}

/** Internal: how repositories reach the connection. */
export interface RepositoryScope {
  readonly db: Kysely<HyMemDatabase>
  readonly context: StoreContext
  readonly statements: StatementCache
  /**
   * Runs `fn` in one `BEGIN IMMEDIATE` transaction holding the connection (or inside the caller's
   * transaction). `fn` receives the kysely instance bound to that connection; raw statements are safe too.
   */
  write<T>(fn: (db: Kysely<HyMemDatabase>) => Promise<T> | T): Promise<T>
  /** Runs `fn` while holding the connection, so raw statements never interleave with a transaction. */
  read<T>(fn: () => T): Promise<T>
  /** The few SQL differences between engines that the kysely builder cannot hide. */
  readonly backend: RepositoryBackend
}

export function _createRepositoryScope(
  db: Kysely<HyMemDatabase>,
  context: StoreContext,
  options: RepositoryOptions,
): RepositoryScope {
  return {
    db,
    context,
    statements: options.statements,
    backend: options.backend ?? SQLITE_BACKEND,
    ..._connectionGuards(db, options),
  }
}

/** The `write`/`read` helpers alone, for search code that needs no clock or ids. */
export function _connectionGuards(
  db: Kysely<HyMemDatabase>,
  options: RepositoryOptions,
): Pick<RepositoryScope, 'write' | 'read'> {
  if (options.backend) return options.backend.guards(db, options)
  return sqliteGuards(db, options)
}

/** SQLite: `BEGIN IMMEDIATE` on the held connection, so raw cached statements join the transaction. */
function sqliteGuards(
  db: Kysely<HyMemDatabase>,
  options: RepositoryOptions,
): Pick<RepositoryScope, 'write' | 'read'> {
  const { statements, inTransaction, writeTurn } = options
  return {
    write: async (fn) => {
      if (inTransaction) return fn(db)
      // The write turn comes before the connection: while it waits, this thread's reads keep the connection.
      const release = writeTurn ? await writeTurn() : undefined
      try {
        return await db.connection().execute(async (connection) => {
          // The connection is held, so the cached raw statements cannot interleave with another caller.
          statements.prepare('BEGIN IMMEDIATE').run()
          try {
            const result = await fn(connection)
            statements.prepare('COMMIT').run()
            return result
          } catch (error) {
            if (statements.inTransaction) statements.prepare('ROLLBACK').run()
            throw error
          }
        })
      } finally {
        release?.()
      }
    },
    read: async (fn) => {
      // Outside any transaction a synchronous read cannot interleave with anyone: skip the connection queue.
      if (inTransaction || !statements.inTransaction) return fn()
      return db.connection().execute(async () => fn())
    },
  }
}

const sqliteBackend: RepositoryBackend = {
  name: 'sqlite',
  insertionOrder: sql<number>`rowid`,
  rowLocks: false,
  guards: sqliteGuards,
}
export const SQLITE_BACKEND: RepositoryBackend = Object.freeze(sqliteBackend)
