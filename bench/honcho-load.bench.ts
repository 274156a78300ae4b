/**
 * hymem-honcho under load while it dreams (issue 18). The server runs in its own process (`startServer`,
 * local embeddings unless BENCH_EMBEDDINGS says otherwise); this process runs 8 SDK writers adding
 * batches of 10 messages, 4 SDK readers (workspace search, session context, peer chat, queue status, 25 ms
 * apart; each writer pauses 100 ms between batches) and a `/health` probe every 100 ms. Reads are timed
 * while the writers run.
 *
 *  1. The mix with background dreaming off, then on (dreams in the worker thread, cooldown 1 s); full mode
 *     also runs it with dreams on the request thread (the server as it was). Reported: read p50/p95, the
 *     worst `/health`, write p95, and the chunks/s the background dreams reached under the load.
 *     Targets: read p95 while dreaming ≤ 2× without; no `/health` answer over 250 ms.
 *  2. Dream throughput without load: one cycle over the same messages in process and in the worker.
 *
 *   pnpm exec tsx --conditions=@hymem/source bench/honcho-load.bench.ts [--quick]
 *   BENCH_CPU_PROF=/tmp/prof adds `--cpu-prof` to the server process (one profile per thread).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath, pathToFileURL } from 'node:url'
import Database from 'better-sqlite3'
import { configFromEnv, createHyMemFromConfig, type HyMem } from 'hymem'
import { drainQueue, type MixResult, type ReadKind, runMix, turnMaker } from './honcho-load/mix'
import type { LoadServerSpec } from './honcho-load/server'
import type { BenchOptions, BenchResult } from './types'

const here = dirname(fileURLToPath(import.meta.url))
const repoRoot = resolve(here, '..')
const WS = 'default'
const EMBEDDINGS = (process.env.BENCH_EMBEDDINGS ?? 'local') as LoadServerSpec['embeddings']

interface Served {
  readonly url: string
  readonly child: ChildProcess
  readonly stderr: () => string
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
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let stderr = ''
  child.stderr?.on('data', (data) => {
    stderr += String(data)
  })
  const url = await new Promise<string>((resolveUrl, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolveUrl)
    child.once('exit', (code) => reject(new Error(`load server exited ${code}: ${stderr}`)))
  })
  return { url, child, stderr: () => stderr }
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
}

async function scenario(
  name: string,
  spec: Omit<LoadServerSpec, 'root'>,
  messages: number,
  say: (line: string) => void,
): Promise<Scenario> {
  const root = mkdtempSync(join(tmpdir(), `hymem-bench-load-${name}-`))
  const served = await startLoadServer({ ...spec, root })
  try {
    const mix = await runMix({
      url: served.url,
      workspaceId: WS,
      writers: 8,
      readers: 4,
      messages,
      batch: 10,
      healthEveryMs: 100,
      readerThinkMs: 25,
      writerThinkMs: 100,
    })
    if (mix.errors.length > 0) throw new Error(`${name}: ${mix.errors.join('; ')}\n${served.stderr()}`)
    const drained = spec.backgroundDreaming ? await drainQueue(served.url, WS, 20_000) : false
    await stopLoadServer(served)
    const dreams = dreamFigures(join(root, 'hymem.sqlite'))
    say(
      `  ${name}: ${messages} messages in ${(mix.writeMs / 1000).toFixed(1)} s, ${allReads(mix).length} reads, ` +
        `${mix.health.length} probes, ${dreams.runs} dream cycles (${dreams.chunks} chunks; ms per phase ` +
        `${Object.entries(dreams.phases)
          .map(([phase, ms]) => `${phase} ${Math.round(ms)}`)
          .join(', ')})`,
    )
    return { mix, dreams, drained }
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
        messages,
        say,
      )
  const rate = await throughput(options.quick ? 1_200 : 2_400)

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
  const results: BenchResult[] = [
    row('read p50, dreams in worker', 'ms', reads(worker, 0.5), reads(off, 0.5), at),
    row('read p95, dreams in worker', 'ms', reads(worker, 0.95), reads(off, 0.95), 'target ratio ≤ 2'),
    row('worst /health, dreams in worker', 'ms', worst(worker), worst(off), 'target ≤ 250 ms'),
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
      notes: `${worker.dreams.runs} cycles, ${worker.dreams.chunks} chunks; queue ${worker.drained ? 'drained' : 'NOT drained in 20 s'}`,
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
        'the server before issue 18',
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results = await run({ quick: process.argv.includes('--quick') }, (line) => console.log(line))
  console.table(
    results.map((r) => ({
      measure: r.name,
      value: `${r.value.toFixed(r.value >= 100 ? 0 : 2)} ${r.unit}`,
      baseline: r.baseline === undefined ? '' : `${r.baseline.toFixed(r.baseline >= 100 ? 0 : 2)} ${r.unit}`,
      ratio: r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}×`,
      notes: r.notes ?? '',
    })),
  )
}
