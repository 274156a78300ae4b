import { afterAll, vi } from 'vitest'

/**
 * The MCP tool suite (tools.test.ts) on PostgreSQL: on a real server in a fresh schema per memory when
 * HYMEM_TEST_DATABASE_URL is set, else on an in-process PGlite per memory.
 */
const server = process.env.HYMEM_TEST_DATABASE_URL
vi.stubEnv(
  'HYMEM_MCP_TEST_DATABASE',
  server
    ? `${server}${server.includes('?') ? '&' : '?'}schema=mcp_${process.pid}_${Date.now().toString(36)}_{n}`
    : 'pglite:memory',
)
afterAll(() => {
  vi.unstubAllEnvs()
})
await import('./tools.test')
