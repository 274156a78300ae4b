import type { Worker } from 'node:worker_threads'
import { releaseThreadWriteLockOf, threadWriteLockTag } from '@hymem/core-store'
import type { DreamProgressEvent, DreamReport } from '@hymem/dreaming'
import { HyMemError } from '../errors'
import type { HyMemLog } from '../log'
import { DreamActivity, type TrackedDream } from '../runtime/dream-activity'
import type { DreamRunnerStatus } from '../runtime/types'
import { enterForeground, startHeartbeat } from './request-heartbeat'
import { launchDreamWorker } from './worker-launch'
import type { DreamWorkerData, HostMessage, WireError, WorkerMessage } from './worker-protocol'

/** Options of {@link createDreamWorkerHost}. */
export interface DreamWorkerHostOptions {
  readonly data: DreamWorkerData
  readonly log: HyMemLog
  /** Wait before restarting a crashed worker; doubled per consecutive crash. @default 1000 */
  readonly backoffMs?: number
  /** Longest wait before a restart. @default 60_000 */
  readonly maxBackoffMs?: number
  /** How long `close()` waits for the worker to reach a checkpoint and close its connection. @default 30_000 */
  readonly closeTimeoutMs?: number
  /** Starts the thread. @default launchDreamWorker */
  readonly launch?: (data: DreamWorkerData) => Worker
}

/** Per-call options of {@link DreamWorkerHost.dream}. */
export interface WorkerDreamOptions {
  readonly budget?: number
  readonly signal?: AbortSignal
  readonly onProgress?: (event: DreamProgressEvent) => void
}

/** Runs dream cycles in a worker thread and keeps one running: crashes are reported and restarted. */
export interface DreamWorkerHost {
  /** Runs one cycle in the worker (starting it on first use). Rejects with `DREAM_WORKER` if it crashes. */
  dream(workspaceId: string, options?: WorkerDreamOptions): Promise<DreamReport>
  /** Whether a cycle is in progress. */
  readonly running: boolean
  status(): DreamRunnerStatus
  /** Counts a request in flight on this thread until the returned function is called (see request-heartbeat.ts). */
  foreground(): () => void
  /** Ends the thread at once, as a crash would: its cycles fail, and it is restarted after the back-off. */
  terminate(): Promise<void>
  /**
   * Stops the running cycles at their next checkpoint (what they committed stays), lets the worker close
   * its connection, then ends the thread. Later calls to `dream()` reject with `CLOSED`.
   */
  close(): Promise<void>
}

interface Job {
  readonly id: number
  readonly workspaceId: string
  readonly budget: number | undefined
  readonly onProgress: ((event: DreamProgressEvent) => void) | undefined
  readonly tracked: TrackedDream
  readonly resolve: (report: DreamReport) => void
  readonly reject: (error: unknown) => void
  aborted: boolean
  /** The worker generation it was sent to; null while it waits for a worker. */
  sentTo: Worker | null
  detach: () => void
}

/**
 * Creates the host side of the dream worker: it schedules nothing itself (the facade's scheduler calls
 * `dream()`), forwards progress and logs, and survives the worker: a crash fails the cycles in flight
 * with `HyMemError('DREAM_WORKER')`, is logged, and a new worker starts after a back-off that doubles per
 * consecutive crash (reset by a cycle that completes). Every worker of a host holds the dream lock under
 * the same holder id, so a restarted worker resumes at once where the crashed one stopped.
 */
export function createDreamWorkerHost(options: DreamWorkerHostOptions): DreamWorkerHost {
  const launch = options.launch ?? launchDreamWorker
  const backoff = options.backoffMs ?? 1000
  const maxBackoff = options.maxBackoffMs ?? 60_000
  const jobs = new Map<number, Job>()
  const activity = new DreamActivity()
  let nextId = 1
  let worker: Worker | null = null
  let ready = false
  let restartTimer: NodeJS.Timeout | null = null
  let consecutiveCrashes = 0
  let crashes = 0
  let lastCrash: { at: string; message: string } | null = null
  let closing: Promise<void> | null = null
  let closed = false
  let stopHeartbeat: (() => void) | null = null

  const send = (target: Worker, message: HostMessage) => target.postMessage(message)

  const dispatch = (job: Job) => {
    if (!worker || job.sentTo) return
    job.sentTo = worker
    send(worker, {
      type: 'dream',
      id: job.id,
      workspaceId: job.workspaceId,
      ...(job.budget !== undefined ? { budget: job.budget } : {}),
    })
    if (job.aborted) send(worker, { type: 'abort', id: job.id })
  }

  const settle = (job: Job) => {
    jobs.delete(job.id)
    job.detach()
    job.tracked.end()
    if (jobs.size === 0) {
      stopHeartbeat?.()
      stopHeartbeat = null
    }
  }

  const onMessage = (from: Worker, message: WorkerMessage) => {
    if (from !== worker) return
    switch (message.type) {
      case 'ready':
        ready = true
        return
      case 'log':
        options.log(message.event)
        return
      case 'progress': {
        const job = jobs.get(message.id)
        if (!job) return
        job.tracked.progress(message.event)
        try {
          job.onProgress?.(message.event)
        } catch {
          // A throwing listener must not break the host; in-process dreams report it in the cycle's errors.
        }
        return
      }
      case 'done': {
        const job = jobs.get(message.id)
        if (!job) return
        consecutiveCrashes = 0
        settle(job)
        job.resolve(message.report)
        return
      }
      case 'failed': {
        const job = jobs.get(message.id)
        if (!job) return
        settle(job)
        job.reject(fromWire(message.error))
        return
      }
      case 'closed':
        void from.terminate()
        return
    }
  }

  const start = () => {
    restartTimer = null
    if (closed || closing || worker) return
    const started = launch(options.data)
    worker = started
    ready = false
    let failure: Error | null = null
    started.on('message', (message: WorkerMessage) => onMessage(started, message))
    started.on('error', (error: Error) => {
      failure = error
    })
    // `threadId` reads -1 once the thread has ended.
    const lockTag = threadWriteLockTag(started.threadId)
    started.on('exit', (code) => onExit(started, lockTag, code, failure))
    for (const job of jobs.values()) dispatch(job)
  }

  const onExit = (exited: Worker, lockTag: number, code: number, failure: Error | null) => {
    if (exited !== worker) return
    worker = null
    ready = false
    // A thread ended in the middle of a write never releases the shared write lock itself.
    if (options.data.writeLock) releaseThreadWriteLockOf(options.data.writeLock, lockTag)
    const lost = [...jobs.values()].filter((job) => job.sentTo === exited)
    if (closing) {
      for (const job of lost) {
        settle(job)
        job.reject(new HyMemError('CLOSED', 'the dream worker closed before the cycle reported back'))
      }
      return
    }
    const reason = failure ? failure.message : `exited with code ${code}`
    crashes++
    consecutiveCrashes++
    lastCrash = { at: new Date().toISOString(), message: reason }
    const delay = Math.min(maxBackoff, backoff * 2 ** (consecutiveCrashes - 1))
    options.log({
      kind: 'dream-worker',
      level: 'error',
      event: 'crashed',
      message: reason,
      restartInMs: delay,
    })
    for (const job of lost) {
      settle(job)
      job.reject(
        new HyMemError(
          'DREAM_WORKER',
          `the dream worker crashed (${reason}); what the cycle committed stays and the next dream resumes it`,
          failure ? { cause: failure } : undefined,
        ),
      )
    }
    restartTimer = setTimeout(() => {
      start()
      options.log({ kind: 'dream-worker', level: 'info', event: 'restarted', message: `after ${delay} ms` })
    }, delay)
    restartTimer.unref()
  }

  const dream = (workspaceId: string, call: WorkerDreamOptions = {}): Promise<DreamReport> => {
    if (closed || closing) return Promise.reject(new HyMemError('CLOSED', 'the dream worker is closed'))
    return new Promise<DreamReport>((resolve, reject) => {
      const job: Job = {
        id: nextId++,
        workspaceId,
        budget: call.budget,
        onProgress: call.onProgress,
        tracked: activity.start(workspaceId),
        resolve,
        reject,
        aborted: false,
        sentTo: null,
        detach: () => {},
      }
      const signal = call.signal
      if (signal) {
        const abort = () => {
          job.aborted = true
          if (job.sentTo && job.sentTo === worker) send(job.sentTo, { type: 'abort', id: job.id })
        }
        if (signal.aborted) job.aborted = true
        else {
          signal.addEventListener('abort', abort, { once: true })
          job.detach = () => signal.removeEventListener('abort', abort)
        }
      }
      jobs.set(job.id, job)
      // While a cycle runs, this thread marks that it keeps up; the worker waits at checkpoints when it does not.
      stopHeartbeat ??= startHeartbeat(options.data.heartbeat)
      if (worker) dispatch(job)
      else if (!restartTimer) start()
    })
  }

  const close = (): Promise<void> => {
    closing ??= (async () => {
      if (restartTimer) clearTimeout(restartTimer)
      restartTimer = null
      for (const job of [...jobs.values()]) {
        if (job.sentTo) continue
        settle(job)
        job.reject(new HyMemError('CLOSED', 'the dream worker closed before the cycle started'))
      }
      const current = worker
      if (current) {
        const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()))
        send(current, { type: 'close' })
        const timeout = setTimeout(() => void current.terminate(), options.closeTimeoutMs ?? 30_000)
        await exited
        clearTimeout(timeout)
      }
      closed = true
    })()
    return closing
  }

  return {
    dream,
    foreground: () => enterForeground(options.data.heartbeat),
    get running() {
      return jobs.size > 0
    },
    status: () => ({
      mode: 'worker',
      state: closed
        ? 'closed'
        : restartTimer
          ? 'restarting'
          : !worker
            ? 'stopped'
            : !ready
              ? 'starting'
              : jobs.size > 0
                ? 'dreaming'
                : 'idle',
      threadId: worker?.threadId ?? null,
      crashes,
      lastCrash,
      running: activity.list(),
    }),
    terminate: async () => {
      await worker?.terminate()
    },
    close,
  }
}

const PASSED_THROUGH = new Set(['INVALID_INPUT', 'NOT_FOUND', 'CLOSED'])

/** A failure reported by the worker, as the facade's error family. */
function fromWire(error: WireError): HyMemError {
  if (error.code && PASSED_THROUGH.has(error.code))
    return new HyMemError(error.code as 'INVALID_INPUT' | 'NOT_FOUND' | 'CLOSED', error.message)
  return new HyMemError('DREAM_WORKER', `the dream worker failed: ${error.message}`)
}
