import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Honcho } from '@honcho-ai/sdk'
import { freeLoopbackPort } from '@hymem/extraction/testing'
import { openHyMemStore } from 'hymem'
import { afterEach, describe, expect, it } from 'vitest'
import { spawnBinary, startBinary } from './running-binary'

const roots: string[] = []

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** Runs the binary from source until it exits (a refused setting, an unreachable database). */
async function runBinaryToExit(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; stderr: string }> {
  const child = spawnBinary(env, args)
  let stderr = ''
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk)
  })
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  return { code, stderr }
}

function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'hymem-honcho-bin-'))
  roots.push(root)
  return root
}

describe('hymem-honcho binary', () => {
  it('names backend, extractor, embedder and auth once, says "no LLM" once, and drains a dream on SIGTERM', async () => {
    const root = tempRoot()
    const port = await freeLoopbackPort()
    const server = await startBinary({
      HYMEM_ROOT: root,
      HYMEM_EMBEDDING_PROVIDER: 'none',
      HYMEM_LOG_LEVEL: 'info',
      HYMEM_DREAM_COOLDOWN_SECONDS: '3600',
      HYMEM_LLM_API_KEY: '',
      DEEPSEEK_API_KEY: '',
      HYMEM_HONCHO_PORT: String(port),
    })
    expect(server.startupLine).toMatch(
      /^hymem-honcho listening on http:\/\/127\.0\.0\.1:\d+ · backend sqlite .*hymem\.sqlite · extractor rules · embedder none · auth off \(loopback only\) · mcp \/mcp · inspector \/inspect · dreams in (a worker thread|process)$/,
    )
    expect((await fetch(`${server.url}/health`)).status).toBe(200)

    const honcho = new Honcho({ baseURL: server.url, workspaceId: 'shutdown', maxRetries: 0 })
    const session = await honcho.session('s')
    const alice = await honcho.peer('alice')
    await session.addMessages(
      Array.from({ length: 40 }, (_, i) =>
        alice.message(
          `We switched service ${i} from MySQL to Postgres last week, and it runs on Fly.io now.`,
        ),
      ),
    )
    await honcho.scheduleDream({ observer: 'alice' })
    server.child.kill('SIGTERM')
    expect(await server.exit).toBe(0)

    const store = await openHyMemStore({ root })
    const runs = await store.dreamRuns.recent('shutdown')
    await store.close()
    // The dreams the messages and the schedule started ended cleanly: finished, or stopped at a checkpoint of
    // the dream worker (aborted; the next start picks the work up), never left running or failed.
    expect(runs.length).toBeGreaterThan(0)
    expect(runs.filter((run) => run.finishedAt === null || run.status === 'failed')).toEqual([])
    for (const run of runs) expect(['ok', 'aborted', 'skipped']).toContain(run.status)
    const stderr = server.stderr()
    expect(stderr.split('\n').filter((line) => line.includes('no LLM'))).toEqual([
      'hymem-honcho: note: no LLM key (HYMEM_LLM_API_KEY or DEEPSEEK_API_KEY): dreaming uses the rule-based extractor and no LLM reranker',
    ])
    expect(stderr).toContain('hymem-honcho: SIGTERM, finishing the requests in flight and the running dreams')
    expect(stderr).toContain('hymem-honcho: stopped')
  }, 60_000)

  it('takes its settings from flags too, naming the flag in a bad value', async () => {
    const { code, stderr } = await runBinaryToExit({ HYMEM_EMBEDDING_PROVIDER: 'none' }, [
      '--root',
      tempRoot(),
      '--port',
      'eighty',
    ])
    expect(code).toBe(2)
    expect(stderr).toContain('hymem-honcho: --port must be a whole number from 1 to 65535')
    expect(stderr).not.toContain('HYMEM_HONCHO_PORT')
  }, 60_000)

  it('never prints a password from its settings: a bad base URL is named with its secrets masked', async () => {
    const { code, stderr } = await runBinaryToExit({
      HYMEM_ROOT: tempRoot(),
      HYMEM_EMBEDDING_PROVIDER: 'none',
      HYMEM_LLM_BASE_URL: 'ftp://bot:pw-userinfo@llm.example/v1?api_key=pw-param',
    })
    expect(code).toBe(2)
    expect(stderr).toContain('ftp://bot:****@llm.example/v1?api_key=****')
    expect(stderr).not.toContain('pw-')
  }, 60_000)
})

describe('hymem-honcho on PostgreSQL', () => {
  it('serves from a PostgreSQL database (PGlite here) named by HYMEM_DATABASE_URL, with no SQLite file', async () => {
    const root = tempRoot()
    const data = join(root, 'pglite-data')
    const server = await startBinary({
      HYMEM_DATABASE_URL: `pglite:${data}`,
      HYMEM_EMBEDDING_PROVIDER: 'none',
      HYMEM_LOG_LEVEL: 'warn',
      HYMEM_HONCHO_PORT: String(await freeLoopbackPort()),
      HYMEM_ROOT: '',
    })
    expect(server.startupLine).toMatch(
      / · backend postgres pglite \(schema public\) · .* · dreams in process$/,
    )
    const honcho = new Honcho({ baseURL: server.url, workspaceId: 'pg', maxRetries: 0 })
    const session = await honcho.session('s')
    const alice = await honcho.peer('alice')
    await session.addMessages([alice.message('We moved the billing service to Postgres.')])
    const messages = await session.messages()
    expect(messages.items.map((m) => m.content)).toEqual(['We moved the billing service to Postgres.'])
    server.child.kill('SIGTERM')
    expect(await server.exit).toBe(0)
    expect(existsSync(join(root, 'hymem.sqlite'))).toBe(false)
  }, 60_000)

  // Against a real server only (HYMEM_TEST_DATABASE_URL): PGlite cannot be shared with a worker thread.
  const server = process.env.HYMEM_TEST_DATABASE_URL
  if (server)
    it('dreams in a worker thread on its own connections to a PostgreSQL server', async () => {
      const schema = `honcho_${process.pid}_${Date.now().toString(36)}`
      const database = `${server}${server.includes('?') ? '&' : '?'}schema=${schema}`
      const running = await startBinary({
        HYMEM_DATABASE_URL: database,
        HYMEM_EMBEDDING_PROVIDER: 'none',
        HYMEM_LOG_LEVEL: 'warn',
        HYMEM_DREAM_COOLDOWN_SECONDS: '0',
        HYMEM_HONCHO_PORT: String(await freeLoopbackPort()),
        HYMEM_ROOT: '',
      })
      expect(running.startupLine).toMatch(/ · backend postgres postgres:\/\/.* · dreams in a worker thread$/)
      const honcho = new Honcho({ baseURL: running.url, workspaceId: 'pgw', maxRetries: 0 })
      const session = await honcho.session('s')
      const alice = await honcho.peer('alice')
      await session.addMessages(
        Array.from({ length: 30 }, (_, i) =>
          alice.message(
            i % 2 === 0
              ? 'We switched from MySQL to Postgres last month for the billing service.'
              : `I prefer pnpm over npm for project ${i}.`,
          ),
        ),
      )
      await honcho.scheduleDream({ observer: 'alice' })
      const store = await openHyMemStore({ database })
      try {
        for (let attempt = 0; attempt < 200; attempt++) {
          const runs = await store.dreamRuns.recent('pgw')
          if (runs.some((run) => run.status === 'ok' && run.chunksProcessed > 0)) break
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
        const edges = await store.edges.listAll('pgw')
        expect(edges.map((edge) => edge.object)).toContain('postgres')
      } finally {
        await store.close()
      }
      running.child.kill('SIGTERM')
      expect(await running.exit).toBe(0)
    }, 60_000)

  it('stops with one line and exit 1 when the database cannot be reached', async () => {
    const { code, stderr } = await runBinaryToExit({
      HYMEM_DATABASE_URL: `postgres://hymem:secret@127.0.0.1:${await freeLoopbackPort()}/hymem`,
      HYMEM_EMBEDDING_PROVIDER: 'none',
    })
    expect(code).toBe(1)
    const lines = stderr.split('\n').filter((line) => line.includes('cannot start'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^hymem-honcho: cannot start: cannot reach PostgreSQL at postgres:\/\/hymem@127\.0\.0\.1:\d+\/hymem \(ECONNREFUSED\); check HYMEM_DATABASE_URL/,
    )
    expect(stderr).not.toContain('secret')
    expect(stderr).not.toContain('    at ')
  }, 60_000)
})
