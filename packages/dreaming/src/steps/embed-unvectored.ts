import type { VectorIndexName } from '@hymem/core-store'
import type { EmbeddingClient } from '@hymem/extraction'
import { callOptions, checkAbort, checkpoint, type RunContext } from '../run/context'
import { textHash } from './ids'

/** Rows of one index that have no vector yet, read a page at a time in id order. */
interface Unvectored<T extends { readonly id: number }> {
  readonly index: VectorIndexName
  /** Rows embedded per cycle at most. */
  readonly budget: number
  readonly page: (afterId: number, limit: number) => Promise<readonly T[]>
  /** The text a row is embedded as. */
  readonly text: (row: T) => string
}

/** Embeds rows without a vector, oldest first, at most `budget` per cycle. Returns how many were embedded. */
export async function embedUnvectored<T extends { readonly id: number }>(
  ctx: RunContext,
  client: EmbeddingClient,
  source: Unvectored<T>,
): Promise<number> {
  let embedded = 0
  let afterId = 0
  const budget = Math.floor(source.budget)
  while (embedded < budget) {
    checkAbort(ctx)
    const limit = Math.max(1, Math.min(Math.floor(ctx.config.embedBatchSize), budget - embedded))
    const batch = await source.page(afterId, limit)
    if (batch.length === 0) break
    const texts = batch.map(source.text)
    const vectors = await client.embed(texts, callOptions(ctx))
    await ctx.store.vectors.upsert(
      source.index,
      batch.map((row, k) => ({
        id: row.id,
        workspaceId: ctx.workspaceId,
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
