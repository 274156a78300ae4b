/**
 * The client side of the load bench: writers and readers on the real `@honcho-ai/sdk`, plus a `/health`
 * probe in its own process (probe.ts), all against one server URL. Reads are timed only while the writers
 * run.
 */
import { spawn } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { Honcho } from '@honcho-ai/sdk'
import { prng, pseudoWords, sentenceMaker, zipfPicker } from '../synthetic'

export interface MixOptions {
  readonly url: string
  readonly workspaceId: string
  readonly writers: number
  readonly readers: number
  /** Messages written in all, in batches of `batch`. */
  readonly messages: number
  readonly batch: number
  readonly healthEveryMs: number
  /** Pause of a reader between two requests. */
  readonly readerThinkMs: number
  /** Pause of a writer between two batches. */
  readonly writerThinkMs: number
}

export type ReadKind = 'search' | 'context' | 'chat' | 'queue'

export interface MixResult {
  /** Wall time of the writing phase. */
  readonly writeMs: number
  readonly writes: number[]
  readonly reads: Record<ReadKind, number[]>
  readonly health: number[]
  /** When each probe started (ms after the mix started), in the order of `health`. */
  readonly healthAt: number[]
  /** How long the probe process itself waited for a CPU during each probe, in the order of `health`. */
  readonly healthProbeQueued: number[]
  /** The server's own event-loop delay over the end of the writing phase (`/health?verbose`). */
  readonly serverLoop: { readonly p99Ms: number; readonly maxMs: number }
  readonly errors: string[]
}

const here = dirname(fileURLToPath(import.meta.url))

const TOOLS = ['redis', 'postgres', 'kafka', 'nginx', 'docker', 'terraform', 'grafana', 'vault', 'consul']
const LANGS = ['go', 'rust', 'python', 'typescript', 'java', 'elixir']

/** Deterministic chat turns: about half state a fact the rule extractor picks up, the rest is chatter. */
export function turnMaker(seed: number): (i: number) => string {
  const rand = prng(seed)
  const sentence = sentenceMaker(zipfPicker(pseudoWords(3000), rand), rand)
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!
  return (i) => {
    switch (i % 6) {
      case 0:
        return `The svc${Math.floor(rand() * 400)} depends on ${pick(TOOLS)} and uses ${pick(TOOLS)}.`
      case 2:
        return `I prefer ${pick(LANGS)} over ${pick(LANGS)} for the ${sentence().split(' ')[0]} service.`
      case 4:
        return `We switched from ${pick(TOOLS)} to ${pick(TOOLS)} last month for billing.`
      default:
        return sentence()
    }
  }
}

const QUESTIONS = [
  'what does the billing service depend on?',
  'which database do we use?',
  'what language do I prefer?',
  'what did we switch to last month?',
]

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await fn()
  return performance.now() - started
}

/** Runs the mix once: writers until `messages` are written, readers and the probe meanwhile. */
export async function runMix(options: MixOptions): Promise<MixResult> {
  const client = () => new Honcho({ baseURL: options.url, workspaceId: options.workspaceId, maxRetries: 0 })
  const reads: Record<ReadKind, number[]> = { search: [], context: [], chat: [], queue: [] }
  const writes: number[] = []
  const health: number[] = []
  const healthAt: number[] = []
  const healthProbeQueued: number[] = []
  const errors: string[] = []
  const fail = (what: string) => (error: unknown) => {
    if (errors.length < 20) errors.push(`${what}: ${error instanceof Error ? error.message : String(error)}`)
  }
  let writing = true
  const mixStarted = performance.now()

  const probe = await startProbe(options.url, options.healthEveryMs)

  const batchesPerWriter = Math.ceil(options.messages / options.batch / options.writers)
  const writerLoops = Array.from({ length: options.writers }, async (_, w) => {
    const honcho = client()
    const session = await honcho.session(`load-${w}`)
    const peer = await honcho.peer(`user-${w}`)
    const turn = turnMaker(100 + w)
    let n = 0
    for (let b = 0; b < batchesPerWriter; b++) {
      const batch = Array.from({ length: options.batch }, () => peer.message(turn(n++)))
      await timed(() => session.addMessages(batch)).then((ms) => writes.push(ms), fail('write'))
      await new Promise((resolve) => setTimeout(resolve, options.writerThinkMs))
    }
  })

  const readerLoops = startReaders(options, reads, () => writing, fail)

  const started = performance.now()
  await Promise.all(writerLoops)
  const writeMs = performance.now() - started
  const verbose = (await (await fetch(`${options.url}/health?verbose`)).json()) as {
    eventLoopDelay: { p99Ms: number; maxMs: number }
  }
  writing = false
  const probed = await probe.stop()
  await Promise.all(readerLoops)
  for (const [at, ms, queued] of probed.answers) {
    healthAt.push(at - (mixStarted - probe.startedAt))
    health.push(ms)
    healthProbeQueued.push(queued)
  }
  for (const error of probed.errors) fail('health')(error)
  return {
    writeMs,
    writes,
    reads,
    health,
    healthAt,
    healthProbeQueued,
    serverLoop: verbose.eventLoopDelay,
    errors,
  }
}

interface Probe {
  /** When the probe process started probing, on this process's clock. */
  readonly startedAt: number
  stop(): Promise<{ answers: [number, number, number][]; errors: string[] }>
}

/** Starts probe.ts in its own process (and session, so its own scheduling group on Linux). */
async function startProbe(url: string, everyMs: number): Promise<Probe> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'probe.ts'), url, String(everyMs)], {
    cwd: resolve(here, '../..'),
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  })
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  const first = await lines.next()
  if (first.value !== 'ready') throw new Error(`the /health probe did not start: ${String(first.value)}`)
  const startedAt = performance.now()
  return {
    startedAt,
    async stop() {
      child.kill('SIGTERM')
      const report = await lines.next()
      if (report.done) throw new Error('the /health probe exited without its report')
      return JSON.parse(report.value) as { answers: [number, number, number][]; errors: string[] }
    },
  }
}

/** The reader clients: each cycles through search, context, chat and queue status while `going()`. */
function startReaders(
  options: Pick<MixOptions, 'url' | 'workspaceId' | 'readers' | 'writers' | 'readerThinkMs'>,
  reads: Record<ReadKind, number[]>,
  going: () => boolean,
  fail: (what: string) => (error: unknown) => void,
): Promise<void>[] {
  return Array.from({ length: options.readers }, async (_, r) => {
    const honcho = new Honcho({ baseURL: options.url, workspaceId: options.workspaceId, maxRetries: 0 })
    const kinds: ReadKind[] = ['search', 'context', 'chat', 'queue']
    let i = r
    while (going()) {
      const kind = kinds[i % kinds.length]!
      const question = QUESTIONS[i % QUESTIONS.length]!
      const target = i % options.writers
      i++
      const call = async () => {
        if (kind === 'search') await honcho.search(question, { limit: 10 })
        else if (kind === 'context') await (await honcho.session(`load-${target}`)).context({ tokens: 2000 })
        else if (kind === 'chat') await (await honcho.peer(`user-${target}`)).chat(question)
        else await honcho.queueStatus()
      }
      await timed(call).then((ms) => {
        if (going()) reads[kind].push(ms)
      }, fail(kind))
      await new Promise((resolve) => setTimeout(resolve, options.readerThinkMs))
    }
  })
}

/** The readers alone for `ms` (no writers, no probe): read latency on the data as it stands. */
export async function runReads(
  options: Pick<MixOptions, 'url' | 'workspaceId' | 'readers' | 'writers' | 'readerThinkMs'>,
  ms: number,
): Promise<Record<ReadKind, number[]>> {
  const reads: Record<ReadKind, number[]> = { search: [], context: [], chat: [], queue: [] }
  const errors: string[] = []
  const until = performance.now() + ms
  await Promise.all(
    startReaders(
      options,
      reads,
      () => performance.now() < until,
      (what) => (error) => {
        errors.push(`${what}: ${error instanceof Error ? error.message : String(error)}`)
      },
    ),
  )
  if (errors.length > 0) throw new Error(errors.slice(0, 5).join('; '))
  return reads
}

/** Polls the queue until nothing is pending or in progress; false when `timeoutMs` passes first. */
export async function drainQueue(url: string, workspaceId: string, timeoutMs: number): Promise<boolean> {
  const honcho = new Honcho({ baseURL: url, workspaceId, maxRetries: 0 })
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const status = await honcho.queueStatus()
    if (status.pendingWorkUnits + status.inProgressWorkUnits === 0) return true
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}
