/**
 * `@hymem/core-store/sqlite`: SQLite internals for benchmarks and tools that measure the store against raw
 * SQLite — the migrations' DDL, the SQL functions the full-text triggers call, and the FTS5 `MATCH` builder.
 * Applications open a store with `openStore` from `@hymem/core-store` instead.
 *
 * @module
 */

export type { MatchQueryOptions } from '../../text/match-query'
export { buildMatchQuery } from '../../text/match-query'
export type { Migration } from '../migrations'
export type { SqliteFunctionHost } from './full-text-functions'
export { registerFullTextFunctions } from './full-text-functions'
export { MIGRATIONS } from './schema/migrations'
