import { createFakeEmbeddings } from '@hymem/extraction'
import { createLocalEmbeddings } from '@hymem/extraction/local'
import type { HyMemConfig } from 'hymem'
import type { EmbedderInfo } from './commands/doctor-types'

/** The embedder a configuration selects, described without loading a model or calling an endpoint. */
export function embedderInfo(config: HyMemConfig): EmbedderInfo | null {
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
      const client = createLocalEmbeddings({ model: config.embedding.localModel })
      return { provider, name: client.name, model: client.model, dimensions: client.dimensions ?? null }
    }
    case 'fake': {
      const client = createFakeEmbeddings()
      return { provider, name: client.name, model: client.model, dimensions: client.dimensions }
    }
  }
}
