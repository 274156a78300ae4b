import { hostname } from 'node:os'
import { randomId, type Store } from '@hymem/core-store'

/** A held dream lock. */
export interface HeldLock {
  heartbeat(): Promise<void>
  release(): Promise<void>
}

/** The lock name of a workspace's dreaming (one cycle per workspace at a time). */
export function dreamLockName(workspaceId: string): string {
  return `dream:${workspaceId}`
}

export function defaultHolderId(): string {
  return `${hostname()}:${process.pid}:${randomId(8)}`
}

/** Takes the workspace's dream lock through the store's advisory lock; null when another holder has it. */
export async function acquireDreamLock(
  store: Store,
  workspaceId: string,
  holderId: string,
): Promise<HeldLock | null> {
  const name = dreamLockName(workspaceId)
  const result = await store.runLock.acquire(name, holderId)
  if (!result.acquired) return null
  return {
    heartbeat: async () => {
      await store.runLock.heartbeat(name, holderId)
    },
    release: async () => {
      await store.runLock.release(name, holderId)
    },
  }
}
