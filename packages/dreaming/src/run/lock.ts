import { hostname } from 'node:os'
import { randomId, type Store } from '@hymem/core-store'

/** A held dream lock. */
export interface HeldLock {
  /** False when the lock was lost (taken over as stale). */
  heartbeat(): Promise<boolean>
  release(): Promise<boolean>
}

/** The lock name of a workspace's dreaming (one cycle per workspace at a time). */
export function dreamLockName(workspaceId: string): string {
  return `dream:${workspaceId}`
}

export function defaultHolderId(): string {
  return `${hostname()}:${process.pid}:${randomId(8)}`
}

/**
 * Takes the workspace's dream lock through the store's advisory lock (stale holders and dead processes on
 * this host are taken over); null when another live holder has it.
 */
export async function acquireDreamLock(
  store: Store,
  workspaceId: string,
  holderId: string,
): Promise<HeldLock | null> {
  const result = await store.runLock.acquire(dreamLockName(workspaceId), holderId)
  if (!result.acquired) return null
  const { lock } = result
  return {
    heartbeat: () => lock.heartbeat(),
    release: () => lock.release(),
  }
}
