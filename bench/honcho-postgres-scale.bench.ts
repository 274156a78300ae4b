/**
 * HTTP add-messages throughput with 1, 2 and 4 hymem-honcho processes on one PostgreSQL server (needs
 * HYMEM_TEST_DATABASE_URL; without it the bench reports nothing). Each configuration gets a fresh schema and its
 * own processes (the real binary, apps/honcho/src/bin.ts), with embeddings off and a dream cooldown of a day, so
 * after the first dream every server only takes writes. 16 writers in this process, spread round-robin over the
 * servers, each add batches of 10 messages to its own session (`POST /v3/workspaces/{ws}/sessions/{s}/messages`)
 * back to back for the measuring window; reported: messages/s and the batch latency p50/p95.
 *
 *   HYMEM_TEST_DATABASE_URL=postgres://… pnpm exec tsx --conditions=@hymem/source bench/honcho-postgres-scale.bench.ts [--quick]
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freeLoopbackPort } from '@hymem/extraction/testing'
import pg from 'pg'
import { percentile } from './augment.bench'
import { runWhenMain } from './results-table'
import type { BenchOptions, BenchResult } from './types'

const here = dirname(fileURLToPath(import.meta.url))
const BIN = resolve(here, '../apps/honcho/src/bin.ts')
const WS = 'scale'
const WRITERS = 16
const BATCH = 10

interface Server {
  readonly url: string
  readonly child: ChildProcess
}

async function startServer(database: string): Promise<Server> {
  const port = await freeLoopbackPort()
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@hymem/source', BIN], {
    cwd: resolve(here, '..'),
    env: {
      ...process.env,
      HYMEM_DATABASE_URL: database,
      HYMEM_ROOT: '',
      HYMEM_EMBEDDING_PROVIDER: 'none',
      HYMEM_LLM_API_KEY: '',
      DEEPSEEK_API_KEY: '',
      HYMEM_LOG_LEVEL: 'error',
      HYMEM_DREAM_COOLDOWN_SECONDS: '86400',
      HYMEM_HONCHO_PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (data) => {
    stderr += String(data)
  })
  const url = await new Promise<string>((resolveUrl, reject) => {
    let stdout = ''
    child.stdout?.on('data', (data) => {
      stdout += String(data)
      const line = /listening on (\S+)/.exec(stdout)
      if (line) resolveUrl(line[1]!)
    })
    child.once('exit', (code) => reject(new Error(`hymem-honcho exited ${code}: ${stderr}`)))
  })
  return { url, child }
}

async function stop(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return
  const exited = new Promise<void>((done) => server.child.once('exit', () => done()))
  server.child.kill('SIGTERM')
  await exited
}

async function addBatch(server: Server, session: string, writer: number, n: number): Promise<void> {
  const messages = Array.from({ length: BATCH }, (_, i) => ({
    peer_id: `writer${writer}`,
    content: `Writer ${writer} notes that service-${n}-${i} depends on cache-${(n + i) % 13} in region ${writer % 3}.`,
  }))
  const response = await fetch(`${server.url}/v3/workspaces/${WS}/sessions/${session}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages }),
  })
  if (!response.ok) throw new Error(`add messages: HTTP ${response.status} ${await response.text()}`)
  await response.arrayBuffer()
}

async function measure(url: string, processes: number, windowMs: number): Promise<BenchResult[]> {
  const schema = `scale_${process.pid}_${Date.now().toString(36)}_${processes}`
  const database = `${url}${url.includes('?') ? '&' : '?'}schema=${schema}`
  const servers: Server[] = []
  try {
    // One server migrates the new schema first; the others open it as it is.
    servers.push(await startServer(database))
    servers.push(...(await Promise.all(Array.from({ length: processes - 1 }, () => startServer(database)))))
    // Warm-up: each server's first request (and its one dream); then the measured window.
    await Promise.all(servers.map((server, i) => addBatch(server, `warm${i}`, i, 0)))
    await new Promise((done) => setTimeout(done, 3_000))
    const latencies: number[] = []
    let messages = 0
    const started = performance.now()
    const deadline = started + windowMs
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
        const server = servers[writer % servers.length]!
        for (let n = 1; performance.now() < deadline; n++) {
          const t0 = performance.now()
          await addBatch(server, `s${writer}`, writer, n)
          latencies.push(performance.now() - t0)
          messages += BATCH
        }
      }),
    )
    const seconds = (performance.now() - started) / 1000
    latencies.sort((a, b) => a - b)
    const label = `${processes} process${processes === 1 ? '' : 'es'}`
    return [
      {
        name: `add-messages throughput, ${label}`,
        unit: 'msg/s',
        value: messages / seconds,
        notes: `${WRITERS} writers × batches of ${BATCH}, ${seconds.toFixed(1)} s; batch p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms`,
      },
    ]
  } finally {
    await Promise.all(servers.map(stop))
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await admin.end()
  }
}

/** The bench entry point (see the file comment). */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const url = process.env.HYMEM_TEST_DATABASE_URL
  if (!url) {
    process.stderr.write('  honcho-postgres-scale: HYMEM_TEST_DATABASE_URL is not set, nothing measured\n')
    return []
  }
  const windowMs = options.quick ? 5_000 : 15_000
  const results: BenchResult[] = []
  for (const processes of [1, 2, 4]) results.push(...(await measure(url, processes, windowMs)))
  const single = results[0]?.value ?? 0
  return results.map((result) => ({ ...result, baseline: single, ratio: result.value / single }))
}

await runWhenMain(import.meta.url, run)
