import { setMaxListeners } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import type { HyMem, PendingWorkspace } from 'hymem'
import type { DreamReport } from '../facade-types'

/** Options of {@link dreamUntilStopped}. */
export interface WorkerLoopOptions {
  /** Stops the loop: the running dream ends at its next checkpoint, keeping what it committed. */
  readonly signal: AbortSignal
  /** Wait between two looks at the queue when no workspace has work. */
  readonly idleMs: number
  /**
   * Wait between two looks when every workspace with work is being dreamed by another process: one of them
   * is free again within a cycle, so this is much shorter than `idleMs`.
   */
  readonly busyMs: number
  /** A workspace whose dream made no progress is left alone this long, unless its backlog changes. */
  readonly stalledMs: number
  /** Return once no workspace has work (instead of waiting for more). */
  readonly once: boolean
  readonly onDream: (report: DreamReport) => void
  /** Where the first pick starts (so workers started together spread out); the default picks at random. */
  readonly start?: (candidates: number) => number
}

/**
 * Dreams every workspace with pending work, one cycle (one budget of chunks) at a time, taking them in turn
 * so a busy workspace never starves the others. Workspaces another process dreams are passed over; two
 * workers picking the same one at once are kept apart by the dream lock (the loser's cycle is `skipped`).
 */
export async function dreamUntilStopped(memory: HyMem, options: WorkerLoopOptions): Promise<number> {
  const stalled = new Map<string, { backlog: string; until: number }>()
  let last: string | null = null
  let dreams = 0
  while (!options.signal.aborted) {
    const now = Date.now()
    const waiting = (await memory.queue.pending()).filter((w) => !isStalled(stalled, w, now))
    const ready = waiting.filter((w) => !w.running)
    if (ready.length === 0) {
      if (options.once && waiting.length === 0) break
      const wait = waiting.length > 0 ? Math.min(options.busyMs, options.idleMs) : options.idleMs
      await sleep(wait, undefined, { signal: options.signal }).catch(() => undefined)
      continue
    }
    const next = pickNext(ready, last, options.start)
    last = next.workspaceId
    const report = await dreamOnce(memory, next.workspaceId, options.signal)
    dreams += 1
    options.onDream(report)
    const progressed = report.chunksCreated > 0 || report.chunksProcessed > 0
    if (report.status !== 'skipped' && !progressed) {
      stalled.set(next.workspaceId, { backlog: backlogKey(next), until: Date.now() + options.stalledMs })
    } else {
      stalled.delete(next.workspaceId)
    }
  }
  return dreams
}

/**
 * One cycle under its own signal, linked to the loop's: whatever listeners the cycle leaves on its signal go
 * with it, so a worker running for weeks never piles them up on one.
 */
async function dreamOnce(memory: HyMem, workspaceId: string, stop: AbortSignal): Promise<DreamReport> {
  const cycle = new AbortController()
  // Each model call of the cycle listens on it; they all end with the cycle.
  setMaxListeners(0, cycle.signal)
  const abort = () => cycle.abort(stop.reason)
  stop.addEventListener('abort', abort, { once: true })
  try {
    return await memory.dream({ workspaceId, signal: cycle.signal })
  } finally {
    stop.removeEventListener('abort', abort)
  }
}

/** The first ready workspace after the last one dreamed (in id order), wrapping around. */
function pickNext(
  ready: readonly PendingWorkspace[],
  last: string | null,
  start: WorkerLoopOptions['start'],
): PendingWorkspace {
  if (last === null) {
    const at = start ? start(ready.length) : Math.floor(Math.random() * ready.length)
    return ready[at % ready.length]!
  }
  return ready.find((w) => w.workspaceId > last) ?? ready[0]!
}

const backlogKey = (w: PendingWorkspace) => `${w.pendingMessages}/${w.pendingChunks}`

function isStalled(
  stalled: Map<string, { backlog: string; until: number }>,
  workspace: PendingWorkspace,
  now: number,
): boolean {
  const entry = stalled.get(workspace.workspaceId)
  return entry !== undefined && entry.backlog === backlogKey(workspace) && now < entry.until
}
