import { onPostgres } from './on-postgres'

/** The session summary cadence contract (sdk-summaries.contract.test.ts) on PostgreSQL. */
onPostgres('http_summaries')
await import('./sdk-summaries.contract.test')
