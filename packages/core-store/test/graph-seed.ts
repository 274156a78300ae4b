import type { Chunk, Store, StoreScope } from '../src'

const T0 = Date.parse('2026-02-01T10:00:00.000Z')

/** ISO time `minutes` after 2026-02-01 10:00 UTC. */
export const minute = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString()

/**
 * Logs one user message per text into `sessionId` (one minute apart from `start`) and chunks each message
 * on its own. Returns the chunks, in message order.
 */
export async function seedChunks(
  store: Store | StoreScope,
  workspaceId: string,
  texts: readonly string[],
  options: { sessionId?: string; start?: number } = {},
): Promise<Chunk[]> {
  const sessionId = options.sessionId ?? 's'
  const start = options.start ?? 0
  const messages = await store.messages.insertBatch(
    workspaceId,
    sessionId,
    texts.map((content, i) => ({ peerId: 'alice', role: 'user', content, createdAt: minute(start + i) })),
  )
  const chunks: Chunk[] = []
  for (const message of messages) {
    const chunk = await store.chunks.insertIfNew(workspaceId, {
      sessionId,
      text: message.content,
      salienceReason: 'test',
      messageIds: [message.id],
      occurredAt: message.createdAt,
    })
    if (chunk) chunks.push(chunk)
  }
  return chunks
}
