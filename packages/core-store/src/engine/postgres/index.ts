/**
 * `@hymem/core-store/postgres`: HyMem's storage on PostgreSQL + pgvector (or an in-process PGlite), behind
 * the same `Store` as the SQLite backend. Only this entry loads `pg`; it never loads better-sqlite3.
 *
 * @example
 * import { openPostgresStore } from '@hymem/core-store/postgres'
 * const store = await openPostgresStore({ url: process.env.HYMEM_DATABASE_URL })
 * console.log(store.info())
 * await store.close()
 *
 * @module
 */
export type { PGliteLike } from './connection'
export type { OpenPostgresStoreOptions } from './open-postgres-store'
export { openPostgresStore } from './open-postgres-store'
export { POSTGRES_MIGRATIONS } from './schema/migrations'
export { buildTsquery } from './tsquery'
export type { PostgresVectorIndexInfo } from './vector-index-report'
export { postgresVectorIndexes } from './vector-index-report'
