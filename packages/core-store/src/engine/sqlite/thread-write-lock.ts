import { threadId } from 'node:worker_threads'
import { StoreError } from '../../kernel/errors'

/** Slots of the shared buffer. */
const OWNER = 0
const REQUEST_WAITING = 1
/** How often a waiter looks again when no notification came (a notify can race a wait). */
const RECHECK_MS = 5

/** `Atomics.waitAsync` (Node ≥ 16; typed here because the compile target's lib predates it). */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      slots: Int32Array,
      index: number,
      value: number,
      timeoutMs: number,
    ): { value: Promise<string> | string }
  }
).waitAsync

/**
 * A write lock shared by the threads of one process through a `SharedArrayBuffer`. Stores opened with it
 * (`openStore({ threadWriteLock })`) take it around every write transaction, before `BEGIN IMMEDIATE`:
 * two threads never meet inside SQLite's busy handler, which blocks its thread and polls in sleeps of up
 * to 100 ms (a thread serving requests would stall, and lose the race to a thread that commits one
 * transaction after another). Waiting for this lock is asynchronous, so the event loop keeps running. The
 * `request` side (the thread serving requests) goes first: a `background` side (a dream worker) only
 * takes the lock while no request-side writer waits, so a request waits at most for one transaction.
 * Writers of one thread queue for it in order; stores take it before their connection, so the reads of a
 * thread never queue behind one of its writes that waits for the lock.
 */
export interface ThreadWriteLock {
  /** Pass it to the other thread (e.g. in `workerData`) and open its lock with {@link createThreadWriteLock}. */
  readonly buffer: SharedArrayBuffer
  /** Resolves once this thread holds the lock; call the returned function exactly once to release it. */
  acquire(): Promise<() => void>
}

/** Options of {@link createThreadWriteLock}. */
export interface ThreadWriteLockOptions {
  /** The buffer of a lock made in another thread; omit to make a new lock. */
  readonly buffer?: SharedArrayBuffer
  /** `request`: goes first. `background`: waits while a request-side writer waits. @default 'request' */
  readonly priority?: 'request' | 'background'
}

/** The tag a thread holds the lock under (never 0, which means free). */
export function threadWriteLockTag(thread = threadId): number {
  return thread + 1
}

/**
 * Creates (or joins, with `buffer`) a write lock shared by threads.
 *
 * @example
 * const lock = createThreadWriteLock()
 * const store = openStore({ path, threadWriteLock: lock })
 * new Worker(entry, { workerData: { lockBuffer: lock.buffer } })
 * // in the worker:
 * openStore({ path, threadWriteLock: createThreadWriteLock({ buffer: workerData.lockBuffer, priority: 'background' }) })
 */
export function createThreadWriteLock(options: ThreadWriteLockOptions = {}): ThreadWriteLock {
  const buffer = options.buffer ?? new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT)
  if (!(buffer instanceof SharedArrayBuffer) || buffer.byteLength < 2 * Int32Array.BYTES_PER_ELEMENT) {
    throw new StoreError(
      'INVALID_INPUT',
      'threadWriteLock needs the SharedArrayBuffer of another thread write lock',
    )
  }
  const slots = new Int32Array(buffer)
  const tag = threadWriteLockTag()
  /** Waits until `slots[index]` changes from `value` or `RECHECK_MS` pass. */
  const pause = async (index: number, value: number) => {
    // `waitAsync` does not keep the event loop alive: without this timer a thread with nothing else to do
    // would end in the middle of its wait.
    const alive = setTimeout(() => undefined, RECHECK_MS + 1)
    try {
      await waitAsync(slots, index, value, RECHECK_MS).value
    } finally {
      clearTimeout(alive)
    }
  }
  const background = options.priority === 'background'

  const releaseShared = () => {
    Atomics.compareExchange(slots, OWNER, tag, 0)
    Atomics.notify(slots, OWNER)
    if (!background) Atomics.notify(slots, REQUEST_WAITING)
  }

  const acquireShared = async (): Promise<void> => {
    if (!background) Atomics.add(slots, REQUEST_WAITING, 1)
    try {
      for (;;) {
        if (background) {
          const waiting = Atomics.load(slots, REQUEST_WAITING)
          if (waiting > 0) {
            await pause(REQUEST_WAITING, waiting)
            continue
          }
        }
        const owner = Atomics.compareExchange(slots, OWNER, 0, tag)
        if (owner === 0) return
        if (owner === tag) {
          throw new StoreError(
            'INVALID_INPUT',
            'another lock object of this thread holds the thread write lock: share one per thread',
          )
        }
        await pause(OWNER, owner)
      }
    } finally {
      if (!background) {
        Atomics.sub(slots, REQUEST_WAITING, 1)
        Atomics.notify(slots, REQUEST_WAITING)
      }
    }
  }

  // The writers of this thread queue here first, one at a time, so only one of them waits on the buffer.
  let tail: Promise<void> = Promise.resolve()
  const acquire = async (): Promise<() => void> => {
    let releaseLocal!: () => void
    const turn = new Promise<void>((resolve) => {
      releaseLocal = resolve
    })
    const previous = tail
    tail = previous.then(() => turn)
    await previous
    try {
      await acquireShared()
    } catch (error) {
      releaseLocal()
      throw error
    }
    let released = false
    return () => {
      if (released) return
      released = true
      releaseShared()
      releaseLocal()
    }
  }

  return { buffer, acquire }
}

/**
 * Frees the lock if the thread tagged `tag` holds it: for the thread that owns a worker, once the worker
 * has died (a terminated thread never releases). Returns whether it was held.
 */
export function releaseThreadWriteLockOf(buffer: SharedArrayBuffer, tag: number): boolean {
  const slots = new Int32Array(buffer)
  const held = Atomics.compareExchange(slots, OWNER, tag, 0) === tag
  if (held) Atomics.notify(slots, OWNER)
  return held
}
