import { createFakeEmbeddings } from '@hymem/extraction'
import { createLocalEmbeddings, type LocalEmbeddingModel } from '@hymem/extraction/local'
import type { HyMemConfig } from 'hymem'
import type { EmbedderInfo } from './commands/doctor-types'

/**
 * The embedder a configuration selects, described without loading a model or calling an endpoint;
 * `localModel` is the offline model it resolves to (see `resolveLocalModel`), the default without one.
 */
export function embedderInfo(config: HyMemConfig, localModel?: LocalEmbeddingModel): EmbedderInfo | null {
  const { provider } = config.embedding
  switch (provider) {
    case 'none':
      return null
    case 'openai-compatible':
      return {
        provider,
        name: `openai-compatible:${config.embedding.model}`,
        model: config.embedding.model,
        dimensions: null,
      }
    case 'local': {
      const model = localModel ?? config.embedding.localModel
      const client = createLocalEmbeddings(model ? { model } : {})
      return { provider, name: client.name, model: client.model, dimensions: client.dimensions ?? null }
    }
    case 'fake': {
      const client = createFakeEmbeddings()
      return { provider, name: client.name, model: client.model, dimensions: client.dimensions }
    }
  }
}
