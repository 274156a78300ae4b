import { ExtractionError } from '../errors'
import type { EmbeddingClient } from './types'

/** Hit/miss counters of a {@link cachedEmbeddings} wrapper. */
export interface EmbeddingCacheStats {
  hits: number
  misses: number
}

/** An embedding client wrapped in an LRU cache. */
export type CachedEmbeddingClient = EmbeddingClient & { readonly stats: EmbeddingCacheStats }

/**
 * Wraps an embedding client with an LRU cache keyed on (model, text). Embeddings are pure functions of their
 * input, so entries never expire; only texts missing from the cache reach the wrapped client, in one batch.
 * Returned vectors are copies, so callers may mutate them.
 */
export function cachedEmbeddings(client: EmbeddingClient, size = 128): CachedEmbeddingClient {
  const capacity = Math.max(0, Math.floor(size))
  const lru = new Map<string, Float32Array>()
  const stats: EmbeddingCacheStats = { hits: 0, misses: 0 }
  const keyOf = (text: string) => `${client.model}\u0000${text}`

  function remember(key: string, vec: Float32Array) {
    if (capacity === 0) return
    lru.delete(key)
    lru.set(key, vec)
    while (lru.size > capacity) {
      const oldest = lru.keys().next().value
      if (oldest === undefined) break
      lru.delete(oldest)
    }
  }

  const wrapper: CachedEmbeddingClient = {
    name: `cached:${client.name}`,
    model: client.model,
    get dimensions() {
      return client.dimensions
    },
    stats,
    async embed(texts, opts) {
      const out = new Array<Float32Array | undefined>(texts.length)
      const missing = new Map<string, number[]>()
      texts.forEach((text, i) => {
        const key = keyOf(text)
        const hit = lru.get(key)
        if (hit) {
          stats.hits += 1
          lru.delete(key)
          lru.set(key, hit)
          out[i] = new Float32Array(hit)
          return
        }
        const slots = missing.get(text)
        if (slots) {
          // A duplicate inside one batch is served by the first occurrence's fetch.
          stats.hits += 1
          slots.push(i)
        } else {
          stats.misses += 1
          missing.set(text, [i])
        }
      })
      if (missing.size > 0) {
        const uniq = [...missing.keys()]
        const vectors = await client.embed(uniq, opts)
        if (vectors.length !== uniq.length) {
          throw new ExtractionError(
            'BAD_RESPONSE',
            `${client.name} returned ${vectors.length} vectors for ${uniq.length} texts`,
          )
        }
        uniq.forEach((text, j) => {
          const vec = vectors[j]
          if (!vec) return
          remember(keyOf(text), vec)
          for (const i of missing.get(text) ?? []) out[i] = new Float32Array(vec)
        })
      }
      return out.map((v) => v ?? new Float32Array(0))
    },
  }
  return wrapper
}
