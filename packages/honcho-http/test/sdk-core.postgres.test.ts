import { afterAll, vi } from 'vitest'

/**
 * The Honcho SDK core contract (sdk-core.contract.test.ts) on PostgreSQL: on a real server in a fresh schema
 * when HYMEM_TEST_DATABASE_URL is set, else on an in-process PGlite.
 */
const server = process.env.HYMEM_TEST_DATABASE_URL
const database = server
  ? `${server}${server.includes('?') ? '&' : '?'}schema=http_${process.pid}_${Date.now().toString(36)}`
  : 'pglite:memory'
vi.stubEnv('HYMEM_HTTP_CONTRACT_DATABASE', database)
afterAll(() => {
  vi.unstubAllEnvs()
})
await import('./sdk-core.contract.test')
