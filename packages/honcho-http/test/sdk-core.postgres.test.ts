import { onPostgres } from './on-postgres'

/** The Honcho SDK core contract (sdk-core.contract.test.ts) on PostgreSQL. */
onPostgres('http_core')
await import('./sdk-core.contract.test')
