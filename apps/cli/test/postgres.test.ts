import { describe, expect, it } from 'vitest'
import { runCli } from '../src/run'
import { captureContext } from './harness'

const serverUrl = process.env.HYMEM_TEST_DATABASE_URL

describe('HYMEM_DATABASE_URL in the CLI', () => {
  it('refuses a URL that is not PostgreSQL as a usage error naming the variable', async () => {
    const { ctx, stderr } = captureContext({ env: { HYMEM_DATABASE_URL: 'mysql://db/hymem' } })
    expect(await runCli(['stats'], ctx)).toBe(2)
    expect(stderr()).toMatch(/^error: HYMEM_DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/)
    expect(stderr().trim().split('\n')).toHaveLength(1)
  })

  it('says in one line (exit 1, no password) that the server cannot be reached', async () => {
    const { ctx, stderr } = captureContext({
      env: { HYMEM_DATABASE_URL: 'postgresql://hymem:s3cret@127.0.0.1:1/hymem' },
    })
    expect(await runCli(['stats'], ctx)).toBe(1)
    expect(stderr()).toMatchInlineSnapshot(`
      "error: cannot reach PostgreSQL at postgresql://hymem@127.0.0.1:1/hymem (ECONNREFUSED); check HYMEM_DATABASE_URL and that the server is running
      "
    `)
  })

  // Against a real server only (HYMEM_TEST_DATABASE_URL): PGlite has no credentials.
  if (serverUrl)
    it('says in one line (exit 1) that the server refused the credentials (an unknown role)', async () => {
      const wrong = new URL(serverUrl)
      wrong.username = 'nobody'
      wrong.password = 'not-the-password'
      const { ctx, stderr } = captureContext({ env: { HYMEM_DATABASE_URL: wrong.toString() } })
      expect(await runCli(['stats'], ctx)).toBe(1)
      expect(stderr()).toMatch(/^error: PostgreSQL at .* refused the credentials .*HYMEM_DATABASE_URL\n$/)
      expect(stderr()).not.toContain('not-the-password')
    })
})
