import type { Store } from '@hymem/core-store'
import type { DreamBacklog } from '../types'

/**
 * Work waiting for the next dream: messages after each session's last chunked message, and chunks without a
 * `processed_chunks` row for the current prompt version.
 */
export async function dreamBacklog(
  store: Store,
  workspaceId: string,
  promptVersion: string,
  running: boolean,
): Promise<DreamBacklog> {
  const perSession = await store.sessions.unchunkedCounts(workspaceId)
  const pendingChunks = await store.chunks.countUnprocessed(workspaceId, promptVersion)
  const sessions: Record<string, { pendingMessages: number }> = {}
  let pendingMessages = 0
  for (const { sessionId, messages } of perSession) {
    sessions[sessionId] = { pendingMessages: messages }
    pendingMessages += messages
  }
  return { pendingMessages, pendingChunks, running, sessions }
}
