import type { EmbeddingClient } from '@hymem/extraction'
import { callOptions, checkAbort, checkpoint, type RunContext } from '../run/context'
import { textHash } from './ids'

/** Characters of a message handed to the embedder (the local models read about 256 tokens anyway). */
const MESSAGE_TEXT_CHARS = 2000

/** The text a message is embedded as: its author, then what it says. */
export function messageText(message: { peerId: string; content: string }): string {
  return `${message.peerId}: ${message.content.slice(0, MESSAGE_TEXT_CHARS)}`
}

/**
 * Embeds messages that have no vector yet, oldest first, at most `messageEmbedBudget` per cycle. Returns how
 * many were embedded.
 */
export async function embedMessages(ctx: RunContext, client: EmbeddingClient): Promise<number> {
  const { store, workspaceId, config } = ctx
  let embedded = 0
  let afterId = 0
  const budget = Math.floor(config.messageEmbedBudget)
  while (embedded < budget) {
    checkAbort(ctx)
    const limit = Math.max(1, Math.min(Math.floor(config.embedBatchSize), budget - embedded))
    const batch = await store.messages.listUnembedded(workspaceId, { afterId, limit })
    if (batch.length === 0) break
    const texts = batch.map(messageText)
    const vectors = await client.embed(texts, callOptions(ctx))
    await store.vectors.upsert(
      'messages',
      batch.map((message, k) => ({
        id: message.id,
        workspaceId,
        vector: vectors[k]!,
        textHash: textHash(texts[k]!),
      })),
      client.model,
    )
    embedded += batch.length
    afterId = batch[batch.length - 1]!.id
    await checkpoint(ctx)
  }
  return embedded
}
