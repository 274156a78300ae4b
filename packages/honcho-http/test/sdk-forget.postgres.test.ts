import { onPostgres } from './on-postgres'

/** The Honcho SDK forgetting contract (sdk-forget.contract.test.ts) on PostgreSQL. */
onPostgres('http_forget')
await import('./sdk-forget.contract.test')
