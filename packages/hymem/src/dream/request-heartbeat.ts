/**
 * The request thread's heartbeat, shared with the dream worker: the thread serving requests marks the time
 * every few milliseconds while a dream runs, and the worker, at each checkpoint, waits while the last mark
 * is stale. A stale mark means the request thread is behind: busy, or runnable but without a CPU. On a
 * busy machine the scheduler charges the worker's CPU time to the whole process, nice value or not, so a
 * worker embedding meanwhile delays the requests; waiting hands the process's share to them. A checkpoint
 * waits at most `maxWaitMs`, so dreams still progress while requests never stop.
 */

/** How often the request thread marks the time. */
const BEAT_MS = 10
/** The request thread is behind when its last mark is older than this. */
const BEHIND_MS = 50
/** How often a waiting worker looks at the mark again. */
const LOOK_AGAIN_MS = 10
/** Longest wait at one checkpoint. */
const MAX_WAIT_MS = 250

/** A buffer for one heartbeat (pass it to the worker in its `workerData`). */
export function createHeartbeatBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT)
}

/** Marks the time in `buffer` every few milliseconds until the returned function is called. */
export function startHeartbeat(buffer: SharedArrayBuffer): () => void {
  const mark = new BigInt64Array(buffer)
  const beat = () => Atomics.store(mark, 0, BigInt(Date.now()))
  beat()
  const timer = setInterval(beat, BEAT_MS)
  timer.unref()
  return () => clearInterval(timer)
}

/** Options of {@link waitWhileBehind}. */
export interface PaceOptions {
  /** Longest wait at one call. @default 250 ms */
  readonly maxWaitMs?: number
}

/** The worker side: a `pace` for `dream()` that waits while the heartbeat in `buffer` is stale. */
export function waitWhileBehind(buffer: SharedArrayBuffer, options: PaceOptions = {}): () => Promise<void> {
  const mark = new BigInt64Array(buffer)
  const maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS
  const behind = () => Date.now() - Number(Atomics.load(mark, 0)) > BEHIND_MS
  return async () => {
    const until = Date.now() + maxWaitMs
    while (behind() && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, LOOK_AGAIN_MS))
    }
  }
}
