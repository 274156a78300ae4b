import { join } from 'node:path'
import { createFakeEmbeddings } from '@hymem/extraction'
import { createHyMem } from 'hymem'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../src/run'
import { captureContext, tempDir } from './harness'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

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

describe('hymem migrate', () => {
  it('copies a SQLite memory into PostgreSQL (PGlite) with --json, is safe to re-run, and refuses another memory', async () => {
    const { dir, cleanup } = tempDir()
    cleanups.push(cleanup)
    const memory = await createHyMem({ root: dir, embeddings: null })
    await memory.capture([
      { role: 'user', content: 'We switched from MySQL to Postgres for the billing service.' },
      { role: 'user', content: 'I prefer pnpm over npm.' },
    ])
    await memory.dream()
    await memory.close()
    const to = `pglite:${join(dir, 'pg')}`

    const first = captureContext({ cwd: dir })
    expect(await runCli(['migrate', '--from', 'hymem.sqlite', '--to', to, '--json'], first.ctx)).toBe(0)
    const report = JSON.parse(first.stdout())
    expect(report).toMatchObject({ rerun: false, to, tables: { messages: { from: 2, to: 2 } } })
    expect(report.tables.knowledge_graph.to).toBeGreaterThan(0)

    const again = captureContext({ cwd: dir })
    expect(await runCli(['migrate', '--from', 'hymem.sqlite', '--to', to], again.ctx)).toBe(0)
    expect(again.stdout()).toMatch(/^Already migrated \(nothing new to copy\): .*hymem\.sqlite → pglite:/)
    expect(again.stdout()).toContain('Every table has the same rows on both sides.')

    const stats = captureContext({ env: { HYMEM_DATABASE_URL: to } })
    expect(await runCli(['stats', '--json'], stats.ctx)).toBe(0)
    expect(JSON.parse(stats.stdout()).counts.messages).toBe(2)

    const other = join(dir, 'other')
    const elsewhere = await createHyMem({ root: other, embeddings: null })
    await elsewhere.log({ role: 'user', content: 'something else entirely' })
    await elsewhere.close()
    const refused = captureContext({ cwd: dir })
    expect(
      await runCli(['migrate', '--from', 'hymem.sqlite', '--to', join(other, 'hymem.sqlite')], refused.ctx),
    ).toBe(1)
    expect(refused.stderr()).toMatch(
      /^error: .* already holds a different memory \(\d+ rows\); migrate into an empty database or file\n$/,
    )
  }, 120_000)
})

describe('hymem doctor on PostgreSQL', () => {
  it('reports the backend, server and pgvector versions and the vector indexes (--json)', async () => {
    const { dir, cleanup } = tempDir()
    cleanups.push(cleanup)
    const database = `pglite:${join(dir, 'pg')}`
    const memory = await createHyMem({ database, embeddings: createFakeEmbeddings({ dimensions: 32 }) })
    await memory.capture([{ role: 'user', content: 'We switched from MySQL to Postgres for billing.' }])
    await memory.dream()
    await memory.close()

    const { ctx, stdout } = captureContext({ env: { HYMEM_DATABASE_URL: database } })
    expect(await runCli(['doctor', '--json', '--offline'], ctx)).toBe(0)
    const report = JSON.parse(stdout())
    const check = (name: string) => report.checks.find((c: { name: string }) => c.name === name)
    expect(check('database')).toMatchObject({ status: 'ok', detail: 'postgres pglite (schema public)' })
    expect(check('postgresql').detail).toMatch(/^\d+\.\d+/)
    expect(check('vector search').detail).toMatch(/^pgvector \d+\.\d+\.\d+$/)
    expect(check('vector indexes').detail).toMatch(/chunk_embeddings\w* \(hnsw, 32-d\)/)
    expect(check('schema').status).toBe('ok')
    expect(report.settings.database).toBe(database)
  }, 60_000)

  it('fails the database line in one line (exit 1) when the server cannot be reached', async () => {
    const { ctx, stdout, stderr } = captureContext({
      env: { HYMEM_DATABASE_URL: 'postgres://hymem:pw@127.0.0.1:1/hymem' },
    })
    expect(await runCli(['doctor', '--json', '--offline'], ctx)).toBe(1)
    const report = JSON.parse(stdout())
    expect(report.checks.find((c: { name: string }) => c.name === 'database')).toEqual({
      name: 'database',
      status: 'fail',
      detail:
        'cannot reach PostgreSQL at postgres://hymem@127.0.0.1:1/hymem (ECONNREFUSED); check HYMEM_DATABASE_URL and that the server is running',
    })
    expect(report.settings.database).toBe('postgres://hymem:****@127.0.0.1:1/hymem')
    expect(stderr()).toMatch(/^error: 1 check failed/)
  })
})
