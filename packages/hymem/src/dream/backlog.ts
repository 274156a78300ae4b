import type { Store } from '@hymem/core-store'
import { dreamLockName } from '@hymem/dreaming'
import type { DreamBacklog } from '../types'

/**
 * Work waiting for the next dream: messages after each session's last chunked message, and chunks without a
 * `processed_chunks` row for the current prompt version. `running` is true when this instance dreams the
 * workspace or any process holds the workspace's dream lock (another server on the same database).
 */
export async function dreamBacklog(
  store: Store,
  workspaceId: string,
  promptVersion: string,
  runningHere: boolean,
): Promise<DreamBacklog> {
  const perSession = await store.sessions.unchunkedCounts(workspaceId)
  const pendingChunks = await store.chunks.countUnprocessed(workspaceId, promptVersion)
  const running = runningHere || (await heldElsewhere(store, workspaceId))
  const sessions: Record<string, { pendingMessages: number }> = {}
  let pendingMessages = 0
  for (const { sessionId, messages } of perSession) {
    sessions[sessionId] = { pendingMessages: messages }
    pendingMessages += messages
  }
  return { pendingMessages, pendingChunks, running, sessions }
}

/**
 * Whether another process dreams the workspace. Only PostgreSQL can tell: its lock is a session-level advisory
 * lock that ends with its holder, while a SQLite `run_lock` row outlives a crashed holder until the next
 * dream takes it over (counting it would hold queue status "in progress" and stop the kick that clears it).
 */
async function heldElsewhere(store: Store, workspaceId: string): Promise<boolean> {
  if (store.backend !== 'postgres') return false
  return (await store.runLock.inspect(dreamLockName(workspaceId))) !== null
}
