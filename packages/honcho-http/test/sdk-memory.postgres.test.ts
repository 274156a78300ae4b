import { onPostgres } from './on-postgres'

/** The Honcho SDK memory contract (sdk-memory.contract.test.ts) on PostgreSQL. */
onPostgres('http_memory')
await import('./sdk-memory.contract.test')
