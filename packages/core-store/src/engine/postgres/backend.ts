import { sql } from 'kysely'
import { StoreError } from '../../kernel/errors'
import type { RepositoryBackend } from '../../repositories/backend'
import type { StatementCache } from '../sqlite/statement-cache'

/**
 * Repositories on PostgreSQL: writes run in a kysely transaction (or join the caller's), reads run directly;
 * `seq` is the insertion order; read-merge-writes lock their rows.
 */
const backend: RepositoryBackend = {
  name: 'postgres',
  insertionOrder: sql<number>`seq`,
  rowLocks: true,
  guards: (db, options) => ({
    write: async (fn) => (options.inTransaction ? fn(db) : db.transaction().execute(async (tx) => fn(tx))),
    read: async (fn) => fn(),
  }),
}
export const POSTGRES_BACKEND: RepositoryBackend = Object.freeze(backend)

/**
 * Stands in for SQLite's prepared-statement cache: a repository method that reaches for raw SQLite SQL on
 * PostgreSQL fails loudly, naming the statement, instead of sending SQLite syntax to the server.
 */
export const UNSUPPORTED_STATEMENTS: StatementCache = {
  inTransaction: false,
  prepare(text: string): never {
    throw new StoreError(
      'UNSUPPORTED',
      `this repository method runs raw SQLite SQL (${text.slice(0, 80)}…); give it a PostgreSQL override in src/engine/postgres/repositories`,
    )
  },
}
