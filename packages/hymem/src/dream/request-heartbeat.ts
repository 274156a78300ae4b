/**
 * The request thread's heartbeat, shared with the dream worker: the thread serving requests marks the time
 * every few milliseconds while a dream runs, and counts the requests it is serving; the worker, at each
 * checkpoint, waits while the last mark is stale or a request is in flight. A stale mark means the request
 * thread is behind: busy, or runnable but without a CPU. On a busy machine the scheduler charges the
 * worker's CPU time to the whole process, nice value or not, so a worker embedding meanwhile delays the
 * requests; waiting hands the process's share to them (foreground first, as a database's background work
 * yields to queries). A checkpoint waits at most `maxWaitMs`, so dreams still progress while requests never
 * stop.
 */

/** How often the request thread marks the time. */
const BEAT_MS = 10
/** The request thread is behind when its last mark is older than this. */
const BEHIND_MS = 50
/** How often a waiting worker looks at the mark again. */
const LOOK_AGAIN_MS = 10
/** Longest wait at one checkpoint. */
const MAX_WAIT_MS = 250

/** Slots of the shared buffer: the last mark (ms since the epoch), and the requests in flight. */
const MARK = 0
const IN_FLIGHT = 1

/** A buffer for one heartbeat (pass it to the worker in its `workerData`). */
export function createHeartbeatBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(2 * BigInt64Array.BYTES_PER_ELEMENT)
}

/** Counts one request in flight in `buffer` until the returned function is called (once; later calls do nothing). */
export function enterForeground(buffer: SharedArrayBuffer): () => void {
  const slots = new BigInt64Array(buffer)
  Atomics.add(slots, IN_FLIGHT, 1n)
  let left = false
  return () => {
    if (left) return
    left = true
    Atomics.sub(slots, IN_FLIGHT, 1n)
  }
}

/** Marks the time in `buffer` every few milliseconds until the returned function is called. */
export function startHeartbeat(buffer: SharedArrayBuffer): () => void {
  const mark = new BigInt64Array(buffer)
  const beat = () => Atomics.store(mark, MARK, BigInt(Date.now()))
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

/**
 * The worker side: a `pace` for `dream()` that waits while the heartbeat in `buffer` is stale or a request
 * is in flight.
 */
export function waitWhileBehind(buffer: SharedArrayBuffer, options: PaceOptions = {}): () => Promise<void> {
  const slots = new BigInt64Array(buffer)
  const maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS
  const behind = () =>
    Date.now() - Number(Atomics.load(slots, MARK)) > BEHIND_MS || Atomics.load(slots, IN_FLIGHT) > 0n
  return async () => {
    const until = Date.now() + maxWaitMs
    while (behind() && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, LOOK_AGAIN_MS))
    }
  }
}
