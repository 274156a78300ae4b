import { hostname } from 'node:os'
import { DEFAULT_LOCK_STALE_AFTER_MS, isProcessAlive, type Store } from '@hymem/core-store'
import { dreamLockName } from '@hymem/dreaming'
import type { DreamBacklog, PendingWorkspace } from './queue-types'

/**
 * Work waiting for the next dream, per session and in all: messages after each session's last chunked message,
 * and chunks without a `processed_chunks` row for the current prompt version (such as a dream killed
 * mid-cycle leaves). `running` is true when this instance dreams the
 * workspace or any process holds the workspace's dream lock (another server on the same database).
 */
export async function dreamBacklog(
  store: Store,
  workspaceId: string,
  promptVersion: string,
  runningHere: boolean,
): Promise<DreamBacklog> {
  // Independent reads, sent together: on PostgreSQL each is a round trip a worker waits for before a cycle.
  const [unchunked, unprocessed, running] = await Promise.all([
    store.sessions.unchunkedCounts(workspaceId),
    store.chunks.countUnprocessedBySession(workspaceId, promptVersion),
    runningHere || heldElsewhere(store, workspaceId),
  ])
  const sessions: Record<string, { pendingMessages: number; pendingChunks: number }> = {}
  const sessionOf = (id: string) => {
    sessions[id] ??= { pendingMessages: 0, pendingChunks: 0 }
    return sessions[id]
  }
  let pendingMessages = 0
  let pendingChunks = 0
  for (const { sessionId, messages } of unchunked) {
    sessionOf(sessionId).pendingMessages = messages
    pendingMessages += messages
  }
  for (const { sessionId, chunks } of unprocessed) {
    sessionOf(sessionId).pendingChunks = chunks
    pendingChunks += chunks
  }
  return { pendingMessages, pendingChunks, running, sessions }
}

/**
 * Every workspace with work waiting for a dream, in id order: what a dream worker picks from. `running` as in
 * {@link dreamBacklog}.
 */
export async function pendingWorkspaces(
  store: Store,
  promptVersion: string,
  runningHere: (workspaceId: string) => boolean,
): Promise<PendingWorkspace[]> {
  const workspaces = await store.workspaces.listAll()
  const backlogs = await Promise.all(
    workspaces.map(({ id }) => dreamBacklog(store, id, promptVersion, runningHere(id))),
  )
  return workspaces.flatMap(({ id }, i) => {
    const { pendingMessages, pendingChunks, running } = backlogs[i]!
    return pendingMessages > 0 || pendingChunks > 0
      ? [{ workspaceId: id, pendingMessages, pendingChunks, running }]
      : []
  })
}

/**
 * Whether another process dreams the workspace. PostgreSQL's lock is a session-level advisory lock that ends
 * with its holder. A SQLite `run_lock` row outlives a crashed holder until the next dream takes it over, so
 * it counts only while its holder's process runs on this machine and its heartbeat is fresh (counting a dead
 * one would hold queue status "in progress" and stop the kick that clears it).
 */
async function heldElsewhere(store: Store, workspaceId: string): Promise<boolean> {
  const holder = await store.runLock.inspect(dreamLockName(workspaceId))
  if (holder === null) return false
  if (store.backend === 'postgres') return true
  const fresh = store.context.clock().getTime() - Date.parse(holder.heartbeatAt) < DEFAULT_LOCK_STALE_AFTER_MS
  return fresh && holder.host === hostname() && isProcessAlive(holder.pid)
}
