import { setPriority } from 'node:os'
import { createThreadWriteLock, type Store } from '@hymem/core-store'
import { dream } from '@hymem/dreaming'
import type { EmbeddingClient } from '@hymem/extraction'
import { embeddingsFromConfig, llmFromConfig } from '../config/clients'
import { openDatabase } from '../database/open-database'
import { _storeLog, type HyMemLog } from '../log'
import { markdownPathsFor } from '../markdown-paths'
import { type DreamExtraction, dreamExtraction } from './extraction'
import { waitWhileBehind } from './request-heartbeat'
import { type DreamWorkerData, type HostMessage, toWireError, type WorkerMessage } from './worker-protocol'

/** The side of a `MessagePort` the worker uses (the thread's `parentPort`). */
export interface WorkerPort {
  postMessage(message: WorkerMessage): void
  on(event: 'message', listener: (message: HostMessage) => void): unknown
  close(): void
}

/**
 * The dream thread's nice value. Dreams are background work; embedding with a local model keeps a core
 * busy for seconds, and on a busy machine the thread serving requests must get the CPU first (measured
 * with the load bench: read p95 about halves against an equal-priority worker; dream throughput is
 * unchanged while a core is free).
 */
const DREAM_THREAD_NICE = 10

/**
 * On Linux the nice value belongs to each thread, and `setPriority(n)` changes the calling thread's only.
 * Elsewhere it would lower the whole process (the request thread included), so it is left alone there.
 */
function lowerThreadPriority(): void {
  if (process.platform !== 'linux') return
  try {
    setPriority(DREAM_THREAD_NICE)
  } catch {
    // Not allowed here (a sandbox): the worker keeps the process's priority.
  }
}

interface Opened {
  readonly store: Store
  readonly extraction: DreamExtraction
  readonly embeddings: EmbeddingClient | null
}

/**
 * The body of a dream worker: opens its own connection, rebuilds the extractor and embedder from the
 * config, then runs the dreams the host asks for and reports their progress. Cycles of one workspace run
 * one after another (they share the lock holder id); different workspaces may overlap.
 */
export function serveDreams(port: WorkerPort, data: DreamWorkerData): void {
  lowerThreadPriority()
  const post = (message: WorkerMessage) => port.postMessage(message)
  const log: HyMemLog = (event) => {
    try {
      post({ type: 'log', event })
    } catch {
      // An event that cannot be copied to the host is dropped rather than failing the dream.
    }
  }
  const opened: Promise<Opened> = (async () => {
    const store = await openDatabase(
      data.databaseUrl === null
        ? { backend: 'sqlite', path: data.databasePath }
        : { backend: 'postgres', url: data.databaseUrl, inProcess: false },
      {
        ...(data.writeLock
          ? { threadWriteLock: createThreadWriteLock({ buffer: data.writeLock, priority: 'background' }) }
          : {}),
        log: _storeLog(log),
      },
    )
    const llm = llmFromConfig(data.clients, { log })
    return {
      store,
      extraction: dreamExtraction(store, { llm, promptVersion: data.promptVersion ?? undefined }),
      embeddings: await embeddingsFromConfig(data.clients, { log, store }),
    }
  })()
  const pace = waitWhileBehind(data.heartbeat)
  const jobs = new Map<number, AbortController>()
  const chains = new Map<string, Promise<void>>()

  const run = async (id: number, workspaceId: string, budget: number | undefined, signal: AbortSignal) => {
    const { store, extraction, embeddings } = await opened
    const files = markdownPathsFor(data.root, data.workspaceId, workspaceId)
    const report = await dream({
      store,
      workspaceId,
      extractor: extraction.extractor,
      ...(extraction.llmCache ? { llmCache: extraction.llmCache } : {}),
      ...(embeddings ? { embeddings } : {}),
      markdown: data.markdownFiles ? { userMdPath: files.userMd, memoryMdPath: files.memoryMd } : null,
      config: data.dream,
      holderId: data.holderId,
      signal,
      ...(budget !== undefined ? { budget } : {}),
      onProgress: (event) => post({ type: 'progress', id, event }),
      pace,
    })
    post({ type: 'done', id, report })
  }

  const enqueue = (id: number, workspaceId: string, budget: number | undefined) => {
    const controller = new AbortController()
    jobs.set(id, controller)
    const job = (chains.get(workspaceId) ?? Promise.resolve())
      .then(() => run(id, workspaceId, budget, controller.signal))
      .catch((error: unknown) => post({ type: 'failed', id, error: toWireError(error) }))
      .finally(() => {
        jobs.delete(id)
        if (chains.get(workspaceId) === job) chains.delete(workspaceId)
      })
    chains.set(workspaceId, job)
  }

  const close = async () => {
    for (const controller of jobs.values()) controller.abort()
    await Promise.allSettled([...chains.values()])
    await opened.then(({ store }) => store.close()).catch(() => undefined)
    post({ type: 'closed' })
    port.close()
  }

  port.on('message', (message) => {
    if (message.type === 'dream') enqueue(message.id, message.workspaceId, message.budget)
    else if (message.type === 'abort') jobs.get(message.id)?.abort()
    else if (message.type === 'close') void close()
  })
  opened.then(
    () => post({ type: 'ready' }),
    (error: unknown) => {
      // Nothing can run without the store: end the thread so the host reports it and restarts with back-off.
      throw error
    },
  )
}
