import { onPostgres } from './on-postgres'

/** The input limits (input-limits.contract.test.ts) on PostgreSQL. */
onPostgres('http_limits')
await import('./input-limits.contract.test')
