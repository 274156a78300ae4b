/**
 * The subset of a better-sqlite3 `Database` the run lock needs; any synchronous SQLite binding with the
 * same shape works.
 */
export interface SqliteLike {
  prepare(sql: string): {
    run(...params: unknown[]): { readonly changes: number | bigint }
    get(...params: unknown[]): unknown
  }
}

/** Who holds a run lock, as stored in the `run_lock` table. */
export interface RunLockHolder {
  readonly name: string
  readonly holder: string
  readonly host: string
  readonly pid: number
  /** ISO-8601 UTC. */
  readonly acquiredAt: string
  /** ISO-8601 UTC; a holder refreshes it with `heartbeat()`. */
  readonly heartbeatAt: string
}

/** Why a lock was taken from its previous holder. */
export type RunLockTakeoverReason = 'stale' | 'dead-process'

/** A lock this process holds; the holder fields are as of acquisition (`inspect()` shows later heartbeats). */
export interface HeldRunLock extends RunLockHolder {
  /** Set when the lock was taken over from a holder that went stale or whose process is gone. */
  readonly tookOver: { readonly previous: RunLockHolder; readonly reason: RunLockTakeoverReason } | null
  /** Records that the holder is alive. Returns false when the lock has been lost (taken over or released). */
  heartbeat(): boolean
  /** Gives the lock up. Returns false when it was no longer held by this holder. */
  release(): boolean
}

/** The outcome of `acquire()`: the held lock, or who holds it instead. */
export type RunLockAcquireResult =
  | { readonly acquired: true; readonly lock: HeldRunLock }
  | { readonly acquired: false; readonly holder: RunLockHolder }

/** Options of `createRunLock`. */
export interface RunLockOptions {
  /** A connection to the HyMem database (the `run_lock` table must exist). */
  readonly db: SqliteLike
  /** @default () => new Date() */
  readonly clock?: () => Date
  /** A holder whose last heartbeat is older than this is taken over. @default 300_000 (5 minutes) */
  readonly staleAfterMs?: number
  /** This machine's name, compared with the holder's to decide whether its pid can be checked. @default os.hostname() */
  readonly host?: string
  /** @default process.pid */
  readonly pid?: number
  /** Whether a process on this host is running. @default signal 0 via `process.kill` */
  readonly isProcessAlive?: (pid: number) => boolean
}

/** Advisory named locks over the `run_lock` table (one per dreaming workspace, for example). */
export interface RunLock {
  /**
   * Takes the lock `name` for `holderId` in one `BEGIN IMMEDIATE` transaction. Succeeds when the lock is
   * free, already held by `holderId`, stale, or held by a process on this host that no longer exists;
   * otherwise reports the current holder.
   */
  acquire(name: string, holderId: string): RunLockAcquireResult
  /** The current holder of `name`, or null when it is free. */
  inspect(name: string): RunLockHolder | null
}
