import type { Store } from '@hymem/core-store'
import { requireSessionId } from './input'
import type { LogStreamResult, SessionBatch } from './log-stream-types'

/**
 * Writes every batch the stream yields inside ONE transaction: when the stream throws, the signal aborts or
 * the process dies, nothing of it is stored (an abort rethrows the signal's reason). Only the current batch is held in memory.
 */
export async function logStream(
  store: Store,
  workspaceId: string,
  batches: AsyncIterable<readonly SessionBatch[]>,
  options: { readonly signal?: AbortSignal; readonly onBatch?: (result: LogStreamResult) => void },
): Promise<LogStreamResult> {
  const sessions: Record<string, number> = {}
  let messages = 0
  await store.transaction(async (tx) => {
    for await (const batch of batches) {
      options.signal?.throwIfAborted()
      for (const { sessionId, messages: slice } of batch) {
        requireSessionId(sessionId)
        if (slice.length === 0) continue
        await tx.messages.insertBatch(workspaceId, sessionId, slice)
        sessions[sessionId] = (sessions[sessionId] ?? 0) + slice.length
        messages += slice.length
      }
      options.onBatch?.({ messages, sessions })
    }
    options.signal?.throwIfAborted()
  })
  return { messages, sessions }
}
