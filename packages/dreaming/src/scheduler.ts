import type { Store } from '@hymem/core-store'
import { dream } from './run/dream'
import type { DreamOptions, DreamReport } from './types'

/** What a scheduled cycle needs besides the store (which the scheduler opens). */
export type ScheduledDreamOptions = Omit<DreamOptions, 'store' | 'workspaceId'>

/** How the cycles of a scheduler run: on a connection it opens here, or through `run` (e.g. a worker thread). */
export type DreamCycleRunner =
  | {
      /** Opens the connection background cycles run on, once, on first use (e.g. `() => store.fork()`). */
      readonly open: () => Store
      /** The dream options of a workspace (extractor, Markdown paths, embeddings, ...). */
      readonly dreamOptions: (workspaceId: string) => ScheduledDreamOptions
    }
  | {
      /** Runs one cycle of the workspace elsewhere and resolves with its report. */
      readonly run: (workspaceId: string) => Promise<DreamReport>
    }

/** Options of {@link createDreamScheduler}. */
export type DreamSchedulerOptions = DreamCycleRunner & {
  /** The workspace `kick()` dreams when none is named. */
  readonly workspaceId: string
  /** Minimum time between two cycles of one workspace. @default 60_000 */
  readonly cooldownMs?: number
  /**
   * After a cycle skipped because another process held the workspace's dream lock, the next attempt comes
   * this long later (at least the cooldown), so work written while the other cycle ran is not left waiting.
   * @default 1_000
   */
  readonly lockedRetryMs?: number
  /** Called after every cycle (the facade invalidates its query caches here). */
  readonly onDreamFinished?: (report: DreamReport) => void
  /** Called when a cycle throws (invalid options, a closed store). */
  readonly onError?: (error: unknown, workspaceId: string) => void
  /** @default Date.now */
  readonly now?: () => number
}

/** A cycle the scheduler will start: now (`dueAt` ≤ now, waiting its turn) or when its cooldown ends. */
export interface ScheduledCycle {
  readonly workspaceId: string
  /** Epoch milliseconds (the scheduler's `now`). */
  readonly dueAt: number
}

/**
 * A background dreamer: cycles run on their own connection, one at a time, at most once per cooldown. A
 * cycle that leaves chunks pending (its budget ran out) is followed by the next one at once.
 */
export interface DreamScheduler {
  /**
   * Asks for a cycle. Runs now when the workspace is idle and out of cooldown; otherwise one trailing cycle
   * is scheduled for when the cooldown ends (repeated kicks collapse into it). Never runs two at once.
   */
  kick(workspaceId?: string): void
  /** Whether a cycle is running. */
  readonly running: boolean
  /** The workspaces a cycle is running for. */
  readonly runningFor: readonly string[]
  /** The cycles asked for and not started yet, soonest first. */
  scheduled(): ScheduledCycle[]
  /** Resolves when no cycle is running or scheduled. */
  idle(): Promise<void>
  /** Cancels scheduled cycles, waits for a running one and closes the connection. */
  close(): Promise<void>
}

/**
 * Creates a background dream scheduler.
 *
 * @example
 * const scheduler = createDreamScheduler({
 *   open: () => store.fork(), workspaceId: 'default', cooldownMs: 60_000,
 *   dreamOptions: () => ({ extractor, markdown }),
 *   onDreamFinished: () => memory.invalidateQueryCaches(),
 * })
 * scheduler.kick()
 */
export function createDreamScheduler(options: DreamSchedulerOptions): DreamScheduler {
  const cooldown = options.cooldownMs ?? 60_000
  const lockedRetry = Math.max(cooldown, options.lockedRetryMs ?? 1_000)
  const now = options.now ?? Date.now
  const lastStart = new Map<string, number>()
  const timers = new Map<string, { readonly timer: NodeJS.Timeout; readonly dueAt: number }>()
  const queue: { readonly workspaceId: string; readonly dueAt: number }[] = []
  const queued = (workspaceId: string) => queue.some((entry) => entry.workspaceId === workspaceId)
  let store: Store | null = null
  let current: Promise<void> | null = null
  let currentWorkspace: string | null = null
  let closed = false
  const waiters: (() => void)[] = []

  const settle = () => {
    if (current || timers.size > 0 || queue.length > 0) return
    for (const w of waiters.splice(0)) w()
  }

  const pump = () => {
    if (current || closed) return settle()
    const workspaceId = queue.shift()?.workspaceId
    if (workspaceId === undefined) return settle()
    lastStart.set(workspaceId, now())
    currentWorkspace = workspaceId
    // Start on a fresh macrotask: the caller's own transaction chain (same thread, other connection) must
    // finish before this connection asks SQLite for the write lock, or the busy wait would block them both.
    current = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => runOnce(workspaceId))
      .finally(() => {
        current = null
        currentWorkspace = null
        pump()
      })
  }

  const cycle = async (workspaceId: string): Promise<DreamReport> => {
    if ('run' in options) return options.run(workspaceId)
    store ??= options.open()
    return dream({ ...options.dreamOptions(workspaceId), store, workspaceId })
  }

  const runOnce = async (workspaceId: string) => {
    try {
      const report = await cycle(workspaceId)
      options.onDreamFinished?.(report)
      if (report.status === 'skipped' && report.skipReason === 'locked') later(workspaceId, lockedRetry)
      // Work left over: at once while cycles make progress, else (chunks failing) after the cooldown.
      else if (report.status === 'ok' && report.chunksPending > 0) {
        if (report.chunksProcessed > 0) enqueue(workspaceId)
        else kick(workspaceId)
      }
    } catch (error) {
      options.onError?.(error, workspaceId)
    }
  }

  /** Queues a cycle of the workspace `wait` ms from now (one trailing cycle per workspace). */
  const later = (workspaceId: string, wait: number) => {
    if (closed || timers.has(workspaceId)) return
    const timer = setTimeout(() => {
      timers.delete(workspaceId)
      enqueue(workspaceId)
    }, wait)
    timer.unref()
    timers.set(workspaceId, { timer, dueAt: now() + wait })
  }

  const enqueue = (workspaceId: string) => {
    if (closed) return
    if (!queued(workspaceId)) queue.push({ workspaceId, dueAt: now() })
    pump()
  }

  const kick = (workspaceId = options.workspaceId) => {
    if (closed || timers.has(workspaceId) || queued(workspaceId)) return
    const wait = (lastStart.get(workspaceId) ?? Number.NEGATIVE_INFINITY) + cooldown - now()
    if (wait > 0) return later(workspaceId, wait)
    enqueue(workspaceId)
  }

  return {
    kick,
    get running() {
      return current !== null
    },
    get runningFor() {
      return currentWorkspace === null ? [] : [currentWorkspace]
    },
    scheduled: () =>
      [...queue, ...[...timers].map(([workspaceId, { dueAt }]) => ({ workspaceId, dueAt }))].sort(
        (a, b) => a.dueAt - b.dueAt,
      ),
    idle: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve)
        settle()
      }),
    async close() {
      closed = true
      for (const { timer } of timers.values()) clearTimeout(timer)
      timers.clear()
      queue.length = 0
      await current
      settle()
      await store?.close()
      store = null
    },
  }
}
