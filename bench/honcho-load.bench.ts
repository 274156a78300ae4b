/**
 * hymem-honcho under load while it dreams (issue 18). The server runs in its own process (`startServer`,
 * local embeddings unless BENCH_EMBEDDINGS says otherwise); this process runs 8 SDK writers adding
 * batches of 10 messages (250 ms apart), 4 SDK readers (workspace search, session context, peer chat,
 * queue status; 100 ms apart) and a `/health` probe every 100 ms. Reads are timed while the writers run.
 *
 *  1. The mix with background dreaming off, then on (dreams in the worker thread, cooldown 1 s); full mode
 *     also runs 1 600 messages with dreams on the request thread (the server as it was). Reported: read
 *     p50/p95, the worst and p99 `/health`, the server's own event-loop delay, write p95, and the chunks/s
 *     the background dreams reached under the load (embedding included). Once the worker scenario's dreams
 *     have emptied the queue, the readers run 8 s alone: their p95 on the same data with no dream running
 *     separates the dreams' interference from the cost of reading a richer memory (no chunks, graph or
 *     vectors exist with dreaming off). Targets: read p95 while dreaming ≤ 2× without; no `/health`
 *     answer over 250 ms.
 *  2. Dream throughput without load: one cycle over the same messages in process and in the worker.
 *
 *   pnpm exec tsx --conditions=@hymem/source bench/honcho-load.bench.ts [--quick]
 *   BENCH_CPU_PROF=/tmp/prof adds `--cpu-prof` to the server process (one profile per thread).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { configFromEnv, createHyMemFromConfig, type HyMem } from 'hymem'
import {
  LONG_TASK_MS,
  type LongTaskReport,
  type StallSummary,
  summarizeStalls,
} from './honcho-load/long-tasks'
import { drainQueue, type MixResult, type ReadKind, runMix, runReads, turnMaker } from './honcho-load/mix'
import type { LoadServerSpec } from './honcho-load/server'
import { runWhenMain } from './results-table'
import type { BenchOptions, BenchResult } from './types'

const here = dirname(fileURLToPath(import.meta.url))
const repoRoot = resolve(here, '..')
const WS = 'default'
const EMBEDDINGS = (process.env.BENCH_EMBEDDINGS ?? 'local') as LoadServerSpec['embeddings']
/** Pauses between two requests of a writer / a reader: a steady load the server can carry on 2 cores. */
const WRITER_THINK_MS = 250
const READER_THINK_MS = 100
/** How long the worker scenario waits after the writes for its background dreams to empty the queue. */
const DRAIN_MS = 20_000
/**
 * The in-process scenario (full mode only) shows the server as it was: its first dream cycle already holds
 * the request thread for seconds (read p95 63× at 1,600 messages), so a quarter of that shows it as well.
 */
const IN_PROCESS_MESSAGES = 400
/** How long the readers run alone once the queue is empty. */
const READS_AFTER_MS = 8_000
/** The issue's target: no `/health` answer slower than this. */
const HEALTH_TARGET_MS = 250

interface Served {
  readonly url: string
  readonly child: ChildProcess
  readonly stderr: () => string
  /** When the server printed its URL (its long-task detector started then), on this process's clock. */
  readonly servedAt: number
}

async function startLoadServer(spec: LoadServerSpec): Promise<Served> {
  const profile = process.env.BENCH_CPU_PROF
  const child = spawn(
    process.execPath,
    [
      ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
      '--conditions=@hymem/source',
      '--import',
      'tsx',
      join(here, 'honcho-load/server.ts'),
      JSON.stringify(spec),
    ],
    // Its own session, as a service started on its own would run: on Linux the scheduler then shares the
    // CPU between it and the load clients as between two programs, not as threads of one.
    { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'], detached: true },
  )
  let stderr = ''
  child.stderr?.on('data', (data) => {
    stderr += String(data)
  })
  const url = await new Promise<string>((resolveUrl, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolveUrl)
    child.once('exit', (code) => reject(new Error(`load server exited ${code}: ${stderr}`)))
  })
  return { url, child, stderr: () => stderr, servedAt: performance.now() }
}

async function stopLoadServer(served: Served): Promise<void> {
  const exited = new Promise<void>((resolveExit) => served.child.once('exit', () => resolveExit()))
  served.child.kill('SIGTERM')
  await exited
}

interface DreamFigures {
  readonly runs: number
  readonly chunks: number
  readonly ms: number
  /** Milliseconds per phase, summed over the cycles. */
  readonly phases: Record<string, number>
}

/** Background dream cycles recorded in the file: how many, chunks extracted, time spent in them. */
function dreamFigures(path: string): DreamFigures {
  const db = new Database(path, { readonly: true })
  try {
    const rows = db
      .prepare("SELECT chunks_processed, timings FROM dream_runs WHERE status IN ('ok', 'aborted', 'failed')")
      .all() as { chunks_processed: number; timings: string }[]
    const phases: Record<string, number> = {}
    for (const row of rows) {
      for (const [phase, ms] of Object.entries(JSON.parse(row.timings) as Record<string, number>))
        phases[phase] = (phases[phase] ?? 0) + ms
    }
    return {
      runs: rows.length,
      chunks: rows.reduce((n, row) => n + row.chunks_processed, 0),
      ms: phases.total ?? 0,
      phases,
    }
  } finally {
    db.close()
  }
}

interface Scenario {
  readonly mix: MixResult
  readonly dreams: DreamFigures
  readonly drained: boolean
  /** How long the queue took to drain after the writes (or the wait when it did not). */
  readonly drainMs: number
  /** Reads alone once the background dreams have emptied the queue (same data, no dream running). */
  readonly readsAfter: Record<ReadKind, number[]> | null
  /** The server's event-loop stalls over LONG_TASK_MS while the mix ran. */
  readonly stalls: StallSummary
}

async function scenario(
  name: string,
  spec: Omit<LoadServerSpec, 'root'>,
  messages: number,
  say: (line: string) => void,
  tolerateErrors = false,
): Promise<Scenario> {
  const root = mkdtempSync(join(tmpdir(), `hymem-bench-load-${name}-`))
  const longTasks = join(root, 'long-tasks.json')
  const served = await startLoadServer({ ...spec, root, longTasks })
  try {
    const mix = await runMix({
      url: served.url,
      workspaceId: WS,
      writers: 8,
      readers: 4,
      messages,
      batch: 10,
      healthEveryMs: 100,
      readerThinkMs: READER_THINK_MS,
      writerThinkMs: WRITER_THINK_MS,
    })
    const mixEnded = performance.now() - served.servedAt
    // The server as it was may time requests out under load: that is a figure of its own, not a broken bench.
    if (mix.errors.length > 0 && !tolerateErrors)
      throw new Error(`${name}: ${mix.errors.join('; ')}\n${served.stderr()}`)
    const drainStarted = performance.now()
    const drained =
      spec.dreamIn === 'worker' && spec.backgroundDreaming
        ? await drainQueue(served.url, WS, DRAIN_MS)
        : false
    const drainMs = performance.now() - drainStarted
    const readsAfter = drained
      ? await runReads(
          { url: served.url, workspaceId: WS, readers: 4, writers: 8, readerThinkMs: READER_THINK_MS },
          READS_AFTER_MS,
        )
      : null
    await stopLoadServer(served)
    const dreams = dreamFigures(join(root, 'hymem.sqlite'))
    const stalls = summarizeStalls(JSON.parse(readFileSync(longTasks, 'utf8')) as LongTaskReport, 0, mixEnded)
    say(
      `  ${name}: ${messages} messages in ${(mix.writeMs / 1000).toFixed(1)} s, ${allReads(mix).length} reads, ` +
        `${mix.health.length} probes, ${dreams.runs} dream cycles (${dreams.chunks} chunks; ms per phase ` +
        `${Object.entries(dreams.phases)
          .map(([phase, ms]) => `${phase} ${Math.round(ms)}`)
          .join(', ')})`,
    )
    say(
      `    server loop stalls over ${LONG_TASK_MS} ms: ${stalls.count}, ${Math.round(stalls.totalMs)} ms in all, ` +
        `of which the thread ran ${Math.round(stalls.runMs)} ms and waited for a CPU ${Math.round(stalls.queuedMs)} ms; ` +
        `worst ${stalls.worst.ms} ms (ran ${stalls.worst.runMs}, waited for a CPU ${stalls.worst.queuedMs})`,
    )
    return { mix, dreams, drained, drainMs, readsAfter, stalls }
  } finally {
    if (served.child.exitCode === null) await stopLoadServer(served)
    rmSync(root, { recursive: true, force: true })
  }
}

const allReads = (mix: MixResult) => (Object.keys(mix.reads) as ReadKind[]).flatMap((k) => mix.reads[k])

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!
}

/** Chunks/s of one cycle over the same messages, in process and in a warmed-up worker. */
async function throughput(messages: number): Promise<{ process: number; worker: number; chunks: number }> {
  const measure = async (dreamIn: 'process' | 'worker') => {
    const root = mkdtempSync(join(tmpdir(), `hymem-bench-dream-${dreamIn}-`))
    const { config } = configFromEnv({ HOME: root, HYMEM_ROOT: root, HYMEM_EMBEDDING_PROVIDER: EMBEDDINGS })
    let memory: HyMem | null = null
    try {
      memory = await createHyMemFromConfig(config, { dreamIn })
      // A first small dream starts the worker and loads the embedding model where the dreams run.
      await memory.logMessages('warm-up', [
        { peerId: 'alice', content: 'The warmup service depends on redis.' },
      ])
      await memory.dream()
      const turn = turnMaker(7)
      for (let at = 0; at < messages; at += 200) {
        const batch = Array.from({ length: 200 }, (_, i) => ({ peerId: 'alice', content: turn(at + i) }))
        await memory.logMessages(`s${at % 1000}`, batch)
      }
      const started = performance.now()
      const report = await memory.dream({ budget: messages })
      if (report.status !== 'ok')
        throw new Error(`dream ${dreamIn}: ${report.status} ${report.errors.join('; ')}`)
      return {
        rate: report.chunksProcessed / ((performance.now() - started) / 1000),
        chunks: report.chunksProcessed,
      }
    } finally {
      await memory?.close()
      rmSync(root, { recursive: true, force: true })
    }
  }
  const inProcess = await measure('process')
  const inWorker = await measure('worker')
  return { process: inProcess.rate, worker: inWorker.rate, chunks: inWorker.chunks }
}

export async function run(
  options: BenchOptions,
  say: (line: string) => void = () => {},
): Promise<BenchResult[]> {
  const messages = options.quick ? 1_600 : 4_800
  const loadBefore = loadavg()[0]!.toFixed(1)
  const base = { cooldownSeconds: 1, embeddings: EMBEDDINGS } as const
  const off = await scenario(
    'dreams off',
    { ...base, dreamIn: 'worker', backgroundDreaming: false },
    messages,
    say,
  )
  const worker = await scenario(
    'dreams in worker',
    { ...base, dreamIn: 'worker', backgroundDreaming: true },
    messages,
    say,
  )
  const inProcess = options.quick
    ? null
    : await scenario(
        'dreams in process',
        { ...base, dreamIn: 'process', backgroundDreaming: true },
        IN_PROCESS_MESSAGES,
        say,
        true,
      )
  // A ratio of two cycles over the same messages: 200 show it (800 took ten minutes of the bench at load 20).
  const rate = await throughput(options.quick ? 100 : 200)

  const reads = (s: Scenario, p: number) => percentile(allReads(s.mix), p)
  const worst = (s: Scenario) => Math.max(0, ...s.mix.health)
  const row = (name: string, unit: string, value: number, baseline: number, notes: string): BenchResult => ({
    name,
    unit,
    value,
    baseline,
    ratio: value / Math.max(baseline, 1e-6),
    notes,
  })
  const at = `${messages} messages, 8 writers, 4 readers, ${EMBEDDINGS} embeddings; baseline: dreams off`
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL')
  const probeQueuedAtWorst = (s: Scenario) => s.mix.healthProbeQueued[s.mix.health.indexOf(worst(s))] ?? 0
  const p95Ratio = reads(worker, 0.95) / Math.max(reads(off, 0.95), 1e-6)
  const stallNotes = (s: Scenario) =>
    `${s.stalls.count} stalls over ${LONG_TASK_MS} ms, ${Math.round(s.stalls.totalMs)} ms in all: the thread ran ` +
    `${Math.round(s.stalls.runMs)} ms (at most ${Math.round(s.stalls.maxRunMs)} ms in one stall) and waited for a CPU ` +
    `${Math.round(s.stalls.queuedMs)} ms; worst stall ran ${s.stalls.worst.runMs} ms, waited ${s.stalls.worst.queuedMs} ms`
  const results: BenchResult[] = [
    row(
      'read p50, dreams in worker',
      'ms',
      reads(worker, 0.5),
      reads(off, 0.5),
      `${at}; load average ${loadBefore} at the start, ${loadavg()[0]!.toFixed(1)} at the end`,
    ),
    row(
      'read p95, dreams in worker',
      'ms',
      reads(worker, 0.95),
      reads(off, 0.95),
      `target ratio ≤ 2: ${verdict(p95Ratio <= 2)}`,
    ),
    row(
      'worst /health, dreams in worker',
      'ms',
      worst(worker),
      worst(off),
      `target ≤ 250 ms: ${verdict(worst(worker) <= HEALTH_TARGET_MS)} (dreams off: ${verdict(worst(off) <= HEALTH_TARGET_MS)}); ` +
        `probe in its own process, which itself waited for a CPU ${probeQueuedAtWorst(worker).toFixed(0)} ms ` +
        `during the slowest answer (dreams off: ${probeQueuedAtWorst(off).toFixed(0)} ms)`,
    ),
    row(
      'worst server loop stall, dreams in worker',
      'ms',
      worker.stalls.worst.ms,
      off.stalls.worst.ms,
      stallNotes(worker),
    ),
    {
      name: 'worst server loop stall, dreams off',
      unit: 'ms',
      value: off.stalls.worst.ms,
      notes: stallNotes(off),
    },
    ...(worker.readsAfter
      ? [
          row(
            'read p95, dreams in worker vs after them',
            'ms',
            reads(worker, 0.95),
            percentile(Object.values(worker.readsAfter).flat(), 0.95),
            'baseline: the same reads once the dreams emptied the queue (same data, no dream running)',
          ),
        ]
      : []),
    row(
      '/health p99, dreams in worker',
      'ms',
      percentile(worker.mix.health, 0.99),
      percentile(off.mix.health, 0.99),
      `${worker.mix.health.length} probes, one every 100 ms`,
    ),
    row(
      'server event-loop delay p99, dreams in worker',
      'ms',
      worker.mix.serverLoop.p99Ms,
      off.mix.serverLoop.p99Ms,
      `max ${worker.mix.serverLoop.maxMs.toFixed(0)} ms (dreams off: ${off.mix.serverLoop.maxMs.toFixed(0)} ms); /health?verbose at the end of writing`,
    ),
    row(
      'write p95, dreams in worker',
      'ms',
      percentile(worker.mix.writes, 0.95),
      percentile(off.mix.writes, 0.95),
      'addMessages, batches of 10',
    ),
    {
      name: 'background dreams under load, worker',
      unit: 'chunks/s',
      value: worker.dreams.ms > 0 ? worker.dreams.chunks / (worker.dreams.ms / 1000) : 0,
      notes: `${worker.dreams.runs} cycles, ${worker.dreams.chunks} chunks; queue ${worker.drained ? `drained ${(worker.drainMs / 1000).toFixed(1)} s after the writes` : `NOT drained ${DRAIN_MS / 1000} s after the writes`}`,
    },
  ]
  for (const kind of ['search', 'context', 'chat', 'queue'] as const) {
    results.push(
      row(
        `${kind} p95, dreams in worker`,
        'ms',
        percentile(worker.mix.reads[kind], 0.95),
        percentile(off.mix.reads[kind], 0.95),
        `${worker.mix.reads[kind].length} calls`,
      ),
    )
  }
  if (inProcess) {
    results.push(
      row(
        'read p95, dreams in process',
        'ms',
        reads(inProcess, 0.95),
        reads(off, 0.95),
        `the server before issue 18 (${IN_PROCESS_MESSAGES} messages); ${inProcess.mix.errors.length} requests failed${inProcess.mix.errors[0] ? ` (${inProcess.mix.errors[0]})` : ''}`,
      ),
      row('worst /health, dreams in process', 'ms', worst(inProcess), worst(off), ''),
      row(
        'server event-loop delay p99, dreams in process',
        'ms',
        inProcess.mix.serverLoop.p99Ms,
        off.mix.serverLoop.p99Ms,
        `max ${inProcess.mix.serverLoop.maxMs.toFixed(0)} ms`,
      ),
      {
        name: 'background dreams under load, in process',
        unit: 'chunks/s',
        value: inProcess.dreams.ms > 0 ? inProcess.dreams.chunks / (inProcess.dreams.ms / 1000) : 0,
        notes: `${inProcess.dreams.runs} cycles, ${inProcess.dreams.chunks} chunks`,
      },
    )
  }
  results.push({
    name: `one dream of ${rate.chunks} chunks, worker`,
    unit: 'chunks/s',
    value: rate.worker,
    baseline: rate.process,
    ratio: rate.process / Math.max(rate.worker, 1e-6),
    notes: 'baseline: the same cycle in process; ratio = in-process speed / worker speed; both warmed up',
  })
  return results
}

await runWhenMain(import.meta.url, run)
