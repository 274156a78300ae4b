import { afterAll, vi } from 'vitest'

/**
 * Points the test server's memory (see harness.ts) at PostgreSQL for the rest of the test file: a fresh schema
 * on the real server when HYMEM_TEST_DATABASE_URL is set, else an in-process PGlite. Call it before importing
 * the contract file that the *.postgres.test.ts file re-runs.
 */
export function onPostgres(name: string): void {
  const server = process.env.HYMEM_TEST_DATABASE_URL
  vi.stubEnv(
    'HYMEM_HTTP_CONTRACT_DATABASE',
    server
      ? `${server}${server.includes('?') ? '&' : '?'}schema=${name}_${process.pid}_${Date.now().toString(36)}`
      : 'pglite:memory',
  )
  afterAll(() => {
    vi.unstubAllEnvs()
  })
}
