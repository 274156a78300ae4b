import { cachedEmbeddings, type EmbeddingClient } from '@hymem/extraction'

/**
 * The default embedder of every surface (library, CLI, MCP, server): the offline USE-lite model shipped in
 * npm, behind an LRU cache. Its packages load here, on first use; the model itself on the first `embed()`.
 */
export async function offlineEmbeddings(): Promise<EmbeddingClient> {
  const { createLocalEmbeddings } = await import('@hymem/extraction/local')
  return cachedEmbeddings(createLocalEmbeddings())
}
