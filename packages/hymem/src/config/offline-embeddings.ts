import { cachedEmbeddings, type EmbeddingClient } from '@hymem/extraction'
import type { LocalEmbeddingModel } from '@hymem/extraction/local'

/**
 * An offline embedder shipped in npm (the default model unless `model` names one), behind an LRU cache. Its
 * packages load here, on first use; the model itself on the first `embed()`.
 */
export async function offlineEmbeddings(model?: LocalEmbeddingModel): Promise<EmbeddingClient> {
  const { createLocalEmbeddings } = await import('@hymem/extraction/local')
  return cachedEmbeddings(createLocalEmbeddings(model ? { model } : {}))
}
