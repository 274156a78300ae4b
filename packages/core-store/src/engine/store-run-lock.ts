import type { RunLock, RunLockHolder, RunLockTakeoverReason } from './run-lock-types'

/** A run lock held through a store; its calls wait their turn on the store's connection. */
export interface StoreHeldRunLock extends RunLockHolder {
  readonly tookOver: { readonly previous: RunLockHolder; readonly reason: RunLockTakeoverReason } | null
  /** Records that the holder is alive; false once the lock has been lost. */
  heartbeat(): Promise<boolean>
  /** Gives the lock up; false when it was no longer held by this holder. */
  release(): Promise<boolean>
}

export type StoreRunLockAcquireResult =
  | { readonly acquired: true; readonly lock: StoreHeldRunLock }
  | { readonly acquired: false; readonly holder: RunLockHolder }

/**
 * The advisory run lock on a store's own connection. The lock's statements are synchronous and open their
 * own transaction, so every call first takes the connection (and the file's in-process gate): it never runs
 * inside, or races, another caller's transaction.
 */
export interface StoreRunLock {
  acquire(name: string, holderId: string): Promise<StoreRunLockAcquireResult>
  inspect(name: string): Promise<RunLockHolder | null>
}

export function createStoreRunLock(lock: RunLock, exclusive: <T>(fn: () => T) => Promise<T>): StoreRunLock {
  return {
    acquire: async (name, holderId) => {
      const result = await exclusive(() => lock.acquire(name, holderId))
      if (!result.acquired) return result
      const held = result.lock
      return {
        acquired: true,
        lock: {
          name: held.name,
          holder: held.holder,
          host: held.host,
          pid: held.pid,
          acquiredAt: held.acquiredAt,
          heartbeatAt: held.heartbeatAt,
          tookOver: held.tookOver,
          heartbeat: () => exclusive(() => held.heartbeat()),
          release: () => exclusive(() => held.release()),
        },
      }
    },
    inspect: (name) => exclusive(() => lock.inspect(name)),
  }
}
