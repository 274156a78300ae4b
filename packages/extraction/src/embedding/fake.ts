import { _throwIfAborted, ExtractionError } from '../errors'
import { _hashEmbedding } from './hash-features'
import type { EmbeddingClient } from './types'

/** Options of {@link createFakeEmbeddings}. */
export interface FakeEmbeddingOptions {
  /** @default 64 */
  dimensions?: number
}

/** A fake embedding client that also counts its calls. */
export interface FakeEmbeddingClient extends EmbeddingClient {
  readonly dimensions: number
  /** Number of `embed()` calls (batches), useful to assert caching. */
  readonly calls: number
  /** Number of texts embedded so far. */
  readonly textsEmbedded: number
}

/**
 * A deterministic offline embedding client: hashed words and character trigrams → unit vector. Same text,
 * same vector; texts sharing words are closer than unrelated texts.
 */
export function createFakeEmbeddings(options: FakeEmbeddingOptions = {}): FakeEmbeddingClient {
  const dimensions = options.dimensions ?? 64
  if (!Number.isInteger(dimensions) || dimensions < 2) {
    throw new ExtractionError(
      'INVALID_INPUT',
      `fake embeddings need an integer dimensions >= 2, got ${dimensions}`,
    )
  }
  let calls = 0
  let textsEmbedded = 0
  return {
    name: `fake:hash-${dimensions}`,
    model: `fake-hash-${dimensions}`,
    dimensions,
    get calls() {
      return calls
    },
    get textsEmbedded() {
      return textsEmbedded
    },
    async embed(texts, opts) {
      _throwIfAborted(opts?.signal)
      calls += 1
      textsEmbedded += texts.length
      return texts.map((t) => _hashEmbedding(t, dimensions))
    },
  }
}
