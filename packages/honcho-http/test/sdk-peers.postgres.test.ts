import { onPostgres } from './on-postgres'

/** The per-peer memory contract (sdk-peers.contract.test.ts) on PostgreSQL. */
onPostgres('http_peers')
await import('./sdk-peers.contract.test')
