/**
 * Dreaming throughput with 1, 2 and 4 `hymem worker` processes on one PostgreSQL server (needs
 * HYMEM_TEST_DATABASE_URL; without it the bench reports nothing). Eight workspaces wait with pending work, the
 * fake OpenAI-compatible LLM answers every request after 200 ms, so the work is I/O-bound on the model. Each
 * configuration gets a fresh schema; the workers (the real binary, apps/cli/src/bin.ts) start on the empty
 * schema, then every message is logged in one transaction, and the bench waits until no workspace has work
 * left. Reported: chunks extracted per second of dreaming (from the first cycle's start to the last one's end,
 * as `dream_runs` recorded them), and the ratio to one worker.
 *
 *   HYMEM_TEST_DATABASE_URL=postgres://… pnpm bench --only dream-workers [--quick] [--json]
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { EMPTY_EXTRACTION_REPLY, startFakeOpenAIServer } from '@hymem/extraction/testing'
import { configFromEnv, createHyMemFromConfig, type HyMem } from 'hymem'
import pg from 'pg'
import type { BenchOptions, BenchResult } from './types'

const here = dirname(fileURLToPath(import.meta.url))
const CLI = resolve(here, '../apps/cli/src/bin.ts')
const WORKSPACES = 8
const LLM_LATENCY_MS = 200
/** Long enough that every message is a chunk of its own (`chunkMaxChars` is 2,000). */
const filler = (ws: number, i: number) =>
  `In workspace ${ws}, note ${i}: the billing-${i} service depends on cache-${i % 7}. `.repeat(16)

async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@hymem/source', CLI, 'worker'], {
    cwd: resolve(here, '..'),
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  await new Promise<void>((ready, reject) => {
    child.stderr?.on('data', (data) => {
      stderr += String(data)
      if (stderr.includes('hymem worker dreaming')) ready()
    })
    child.once('exit', (code) => reject(new Error(`hymem worker exited ${code}: ${stderr}`)))
  })
  return child
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  child.kill('SIGTERM')
  await exited
}

async function drained(memory: HyMem): Promise<boolean> {
  const backlogs = await Promise.all(
    Array.from({ length: WORKSPACES }, (_, ws) => memory.queue.backlog(`w${ws}`)),
  )
  return backlogs.every((b) => !b.running && b.pendingChunks === 0 && b.pendingMessages === 0)
}

async function measure(
  url: string,
  llmUrl: string,
  workers: number,
  perWorkspace: number,
): Promise<BenchResult> {
  const schema = `dreamers_${process.pid}_${Date.now().toString(36)}_${workers}`
  const env = {
    HYMEM_DATABASE_URL: `${url}${url.includes('?') ? '&' : '?'}schema=${schema}`,
    HYMEM_ROOT: '',
    HYMEM_EMBEDDING_PROVIDER: 'none',
    HYMEM_LLM_API_KEY: 'bench-key',
    HYMEM_LLM_BASE_URL: llmUrl,
    HYMEM_LLM_MODEL: 'fake-chat',
    HYMEM_DREAM_BUDGET: '8',
    HYMEM_LOG_LEVEL: 'error',
  }
  const { config } = configFromEnv(env)
  const memory = await createHyMemFromConfig(config)
  const children: ChildProcess[] = []
  try {
    children.push(...(await Promise.all(Array.from({ length: workers }, () => startWorker(env)))))
    // One transaction per workspace, right after another: the work appears while the workers poll.
    for (let ws = 0; ws < WORKSPACES; ws++) {
      const messages = Array.from({ length: perWorkspace }, (_, i) => ({
        peerId: 'user',
        role: 'user' as const,
        content: filler(ws, i),
      }))
      await memory.logMessages('s', messages, { workspaceId: `w${ws}` })
    }
    const logged = Date.now()
    // The end comes from the runs' own timestamps, so the check can be rare (its backlog queries load the
    // same server the workers use).
    for (let turn = 0; !(await drained(memory)); turn++) {
      if (turn > 1200) throw new Error('the workers did not finish within 10 minutes')
      await new Promise((done) => setTimeout(done, 500))
    }
    const window = await dreamingWindow(url, schema)
    const seconds = (window.lastFinished - window.firstStarted) / 1000
    let chunks = 0
    for (let ws = 0; ws < WORKSPACES; ws++)
      chunks += (await memory.stats({ workspaceId: `w${ws}` })).counts.chunks ?? 0
    return {
      name: `workers-${workers}`,
      unit: 'chunks/s',
      value: chunks / seconds,
      notes:
        `${chunks} chunks in ${WORKSPACES} workspaces, ${seconds.toFixed(1)} s of dreaming (${window.cycles} cycles), ` +
        `first cycle ${((window.firstStarted - logged) / 1000).toFixed(1)} s after the last message; LLM ${LLM_LATENCY_MS} ms a call`,
    }
  } finally {
    await Promise.all(children.map(stop))
    await memory.close()
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await admin.end()
  }
}

/**
 * From the first cycle's start to the last cycle's end, as the workers recorded them: the dreaming itself,
 * without how long an idle worker takes to look at the queue again (`--idle-seconds`).
 */
async function dreamingWindow(
  url: string,
  schema: string,
): Promise<{ firstStarted: number; lastFinished: number; cycles: number }> {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    const { rows } = await admin.query<{ first: string; last: string; cycles: string }>(
      `SELECT min(started_at) AS first, max(finished_at) AS last, count(*) AS cycles
         FROM ${schema}.dream_runs WHERE status = 'ok'`,
    )
    const row = rows[0]!
    return {
      firstStarted: Date.parse(row.first),
      lastFinished: Date.parse(row.last),
      cycles: Number(row.cycles),
    }
  } finally {
    await admin.end()
  }
}

/** The bench entry point (see the file comment). */
export async function run(options: BenchOptions, say?: (line: string) => void): Promise<BenchResult[]> {
  const url = process.env.HYMEM_TEST_DATABASE_URL
  if (!url) {
    process.stderr.write('  dream-workers: HYMEM_TEST_DATABASE_URL is not set, nothing measured\n')
    return []
  }
  const llm = await startFakeOpenAIServer({
    latencyMs: LLM_LATENCY_MS,
    defaultReply: () => EMPTY_EXTRACTION_REPLY,
  })
  try {
    const results: BenchResult[] = []
    for (const workers of [1, 2, 4]) {
      results.push(await measure(url, llm.url, workers, options.quick ? 8 : 24))
      say?.(`  ${results.at(-1)!.name}: ${results.at(-1)!.value.toFixed(1)} chunks/s`)
    }
    const single = results[0]?.value ?? 0
    return results.map((result) => ({ ...result, baseline: single, ratio: result.value / single }))
  } finally {
    await llm.close()
  }
}
