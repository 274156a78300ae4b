import type { Store } from '@hymem/core-store'
import type { LocalEmbeddingModel } from '@hymem/extraction/local'

/**
 * The offline model a memory embeds with: `chosen` when given, else the one its stored vectors were made with
 * (a memory made under an earlier default keeps its model, with no re-index), else the default. Every process
 * opening the same database resolves the same model.
 */
export async function resolveLocalModel(
  store: Store,
  chosen: LocalEmbeddingModel | null | undefined = null,
): Promise<LocalEmbeddingModel> {
  const { DEFAULT_LOCAL_EMBEDDING_MODEL, localModelOfId } = await import('@hymem/extraction/local')
  if (chosen) return chosen
  for (const pin of await store.vectors.pins()) {
    const pinned = localModelOfId(pin.model)
    if (pinned) return pinned
  }
  return DEFAULT_LOCAL_EMBEDDING_MODEL
}
