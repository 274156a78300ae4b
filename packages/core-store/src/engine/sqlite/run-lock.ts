import { hostname } from 'node:os'
import { StoreError } from '../../kernel/errors'
import type {
  HeldRunLock,
  RunLock,
  RunLockHolder,
  RunLockOptions,
  RunLockTakeoverReason,
  SqliteLike,
} from '../run-lock-types'

/** How long a holder may go without a heartbeat before another run takes its lock over. */
export const DEFAULT_LOCK_STALE_AFTER_MS = 300_000

interface RunLockRow {
  name: string
  holder: string
  host: string
  pid: number | bigint
  acquired_at: string
  heartbeat_at: string
}

/**
 * Whether process `pid` exists on this host: signal 0 checks without delivering anything. `EPERM` means it
 * exists under another user.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function toHolder(row: RunLockRow): RunLockHolder {
  return {
    name: row.name,
    holder: row.holder,
    host: row.host,
    pid: Number(row.pid),
    acquiredAt: row.acquired_at,
    heartbeatAt: row.heartbeat_at,
  }
}

function requireText(value: unknown, what: string): asserts value is string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new StoreError('INVALID_INPUT', `The run lock ${what} must be a non-empty string.`)
  }
}

function inImmediateTransaction<T>(db: SqliteLike, fn: () => T): T {
  db.prepare('BEGIN IMMEDIATE').run()
  try {
    const result = fn()
    db.prepare('COMMIT').run()
    return result
  } catch (error) {
    db.prepare('ROLLBACK').run()
    throw error
  }
}

/**
 * The advisory lock that keeps two dreaming runs apart, over the `run_lock` table. A crashed holder never
 * blocks the next run for long: its lock is taken over once its heartbeat is older than `staleAfterMs`,
 * and at once when it ran on this host and its process is gone.
 *
 * @example
 * ```ts
 * const locks = createRunLock({ db: sqlite })
 * const result = locks.acquire('dream:w1', runId)
 * if (!result.acquired) return { skipped: `locked by ${result.holder.holder}` }
 * const beat = setInterval(() => result.lock.heartbeat(), 60_000)
 * try { await dream() } finally { clearInterval(beat); result.lock.release() }
 * ```
 */
export function createRunLock(options: RunLockOptions): RunLock {
  const { db } = options
  const clock = options.clock ?? (() => new Date())
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_LOCK_STALE_AFTER_MS
  const host = options.host ?? hostname()
  const pid = options.pid ?? process.pid
  const alive = options.isProcessAlive ?? isProcessAlive
  if (!Number.isFinite(staleAfterMs) || staleAfterMs <= 0) {
    throw new StoreError(
      'INVALID_INPUT',
      `staleAfterMs must be a positive number of milliseconds, got ${staleAfterMs}.`,
    )
  }

  const read = (name: string) =>
    db.prepare('SELECT * FROM run_lock WHERE name = ?').get(name) as RunLockRow | undefined

  function takeoverReason(row: RunLockRow, now: Date): RunLockTakeoverReason | null {
    const lastBeat = Date.parse(row.heartbeat_at)
    // an unreadable heartbeat cannot prove the holder is alive
    if (Number.isNaN(lastBeat) || now.getTime() - lastBeat > staleAfterMs) return 'stale'
    if (row.host === host && Number(row.pid) !== pid && !alive(Number(row.pid))) return 'dead-process'
    return null
  }

  function held(holder: RunLockHolder, tookOver: HeldRunLock['tookOver']): HeldRunLock {
    return {
      ...holder,
      tookOver,
      heartbeat: () =>
        Number(
          db
            .prepare('UPDATE run_lock SET heartbeat_at = ? WHERE name = ? AND holder = ?')
            .run(clock().toISOString(), holder.name, holder.holder).changes,
        ) === 1,
      release: () =>
        Number(
          db.prepare('DELETE FROM run_lock WHERE name = ? AND holder = ?').run(holder.name, holder.holder)
            .changes,
        ) === 1,
    }
  }

  return {
    acquire(name, holderId) {
      requireText(name, 'name')
      requireText(holderId, 'holder id')
      return inImmediateTransaction(db, () => {
        const now = clock()
        const stamp = now.toISOString()
        const row = read(name)
        if (row === undefined) {
          db.prepare(
            'INSERT INTO run_lock (name, holder, host, pid, acquired_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?)',
          ).run(name, holderId, host, pid, stamp, stamp)
          return { acquired: true, lock: held(toHolder(read(name)!), null) }
        }
        if (row.holder === holderId) {
          db.prepare('UPDATE run_lock SET host = ?, pid = ?, heartbeat_at = ? WHERE name = ?').run(
            host,
            pid,
            stamp,
            name,
          )
          return { acquired: true, lock: held(toHolder(read(name)!), null) }
        }
        const reason = takeoverReason(row, now)
        if (reason === null) return { acquired: false, holder: toHolder(row) }
        db.prepare(
          'UPDATE run_lock SET holder = ?, host = ?, pid = ?, acquired_at = ?, heartbeat_at = ? WHERE name = ?',
        ).run(holderId, host, pid, stamp, stamp, name)
        return { acquired: true, lock: held(toHolder(read(name)!), { previous: toHolder(row), reason }) }
      })
    },
    inspect(name) {
      requireText(name, 'name')
      const row = read(name)
      return row === undefined ? null : toHolder(row)
    },
  }
}
