import type { EmbeddingClient } from '@hymem/extraction'
import { callOptions, checkAbort, checkpoint, type RunContext } from '../run/context'
import { messageText } from './embed-messages'
import { textHash } from './ids'

/**
 * Embeds passages (of long messages) that have no vector yet, oldest first, at most `passageEmbedBudget` per
 * cycle, each as its author and its text, like a message. Returns how many were embedded.
 */
export async function embedPassages(ctx: RunContext, client: EmbeddingClient): Promise<number> {
  const { store, workspaceId, config } = ctx
  let embedded = 0
  let afterId = 0
  const budget = Math.floor(config.passageEmbedBudget)
  while (embedded < budget) {
    checkAbort(ctx)
    const limit = Math.max(1, Math.min(Math.floor(config.embedBatchSize), budget - embedded))
    const batch = await store.passages.listUnembedded(workspaceId, { afterId, limit })
    if (batch.length === 0) break
    const texts = batch.map((passage) => messageText({ peerId: passage.peerId, content: passage.text }))
    const vectors = await client.embed(texts, callOptions(ctx))
    await store.vectors.upsert(
      'passages',
      batch.map((passage, k) => ({
        id: passage.id,
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
