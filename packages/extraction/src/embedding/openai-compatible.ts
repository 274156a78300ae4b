import { _throwIfAborted, ExtractionError } from '../errors'
import { _connectOpenAICompatible, type OpenAICompatibleConnectionOptions } from '../llm/connection'
import { _toExtractionError, EMBEDDING_ENV_HINTS, type EnvHints } from '../llm/provider-errors'
import type { EmbeddingClient } from './types'

/** Options of {@link createOpenAICompatibleEmbeddings}. */
export interface OpenAICompatibleEmbeddingOptions extends OpenAICompatibleConnectionOptions {
  /** API root; `/embeddings` is appended. @default 'https://api.deepseek.com' */
  baseURL?: string
  /** @default 'deepseek-embedding' */
  model?: string
  /** Requested vector length (sent to the provider, and checked on every answer). */
  dimensions?: number
  /** Texts per request (batches in flight at once: `concurrency`). @default 64 */
  batchSize?: number
  /** @default the HYMEM_EMBEDDING_* names */
  envHints?: EnvHints
}

/** Embedding endpoint used when no `baseURL` is given (the walkthrough's default). */
export const DEFAULT_EMBEDDING_BASE_URL = 'https://api.deepseek.com'
/** Embedding model used when no `model` is given. */
export const DEFAULT_EMBEDDING_MODEL = 'deepseek-embedding'

/**
 * An embedding client for any OpenAI-compatible `/embeddings` endpoint. Input is split into batches sent with
 * bounded concurrency; vectors come back in input order as `Float32Array`s.
 *
 * @example
 * const emb = createOpenAICompatibleEmbeddings({ apiKey, baseURL: 'https://api.openai.com/v1', model: 'text-embedding-3-small' })
 * const [vec] = await emb.embed(['hello'])
 */
export function createOpenAICompatibleEmbeddings(options: OpenAICompatibleEmbeddingOptions): EmbeddingClient {
  const { sdk, baseURL, model, name, timeoutMs, hints, log, limit } = _connectOpenAICompatible(options, {
    baseURL: DEFAULT_EMBEDDING_BASE_URL,
    model: DEFAULT_EMBEDDING_MODEL,
    hints: EMBEDDING_ENV_HINTS,
  })
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 64))
  let dimensions = options.dimensions

  async function embedBatch(
    batch: readonly string[],
    signal: AbortSignal | undefined,
  ): Promise<Float32Array[]> {
    _throwIfAborted(signal)
    const res = await sdk.embeddings.create(
      {
        model,
        input: [...batch],
        encoding_format: 'float',
        ...(options.dimensions !== undefined ? { dimensions: options.dimensions } : {}),
      },
      signal ? { signal } : {},
    )
    const data = (res as { data?: unknown }).data
    if (!Array.isArray(data) || data.length !== batch.length) {
      throw new ExtractionError(
        'BAD_RESPONSE',
        `${baseURL} returned ${Array.isArray(data) ? data.length : 'no'} embeddings for ${batch.length} inputs (model ${model})`,
      )
    }
    const out = new Array<Float32Array>(batch.length)
    data.forEach((item: { index?: unknown; embedding?: unknown }, pos) => {
      const index = typeof item.index === 'number' ? item.index : pos
      const emb = item.embedding
      if (!Array.isArray(emb) || emb.length === 0 || !emb.every((x) => typeof x === 'number')) {
        throw new ExtractionError(
          'BAD_RESPONSE',
          `${baseURL} returned a malformed embedding (model ${model})`,
        )
      }
      if (dimensions !== undefined && emb.length !== dimensions) {
        throw new ExtractionError(
          'BAD_RESPONSE',
          `${baseURL} returned ${emb.length}-d vectors but ${dimensions} were expected (model ${model})`,
        )
      }
      dimensions = emb.length
      if (index < 0 || index >= batch.length || out[index]) {
        throw new ExtractionError(
          'BAD_RESPONSE',
          `${baseURL} returned an out-of-range embedding index ${index}`,
        )
      }
      out[index] = Float32Array.from(emb)
    })
    return out
  }

  return {
    name,
    model,
    get dimensions() {
      return dimensions
    },
    async embed(texts, opts) {
      const signal = opts?.signal
      if (texts.length === 0) return []
      const started = performance.now()
      const batches: string[][] = []
      for (let i = 0; i < texts.length; i += batchSize) batches.push(texts.slice(i, i + batchSize))
      try {
        const results = await Promise.all(batches.map((b) => limit(() => embedBatch(b, signal))))
        log({
          kind: 'embed',
          client: name,
          model,
          count: texts.length,
          batches: batches.length,
          ms: performance.now() - started,
        })
        return results.flat()
      } catch (err) {
        const e = _toExtractionError(err, { baseURL, model, timeoutMs, hints, ...(signal ? { signal } : {}) })
        log({ kind: 'error', client: name, model, code: e.code, message: e.message })
        throw e
      }
    },
  }
}
