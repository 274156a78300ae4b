import { createHash } from 'node:crypto'
import type { Store } from '@hymem/core-store'
import type { LLMClient, LLMCompletion } from '@hymem/extraction'

/** An LLM response cache in the `llm_cache` table, keyed on a hash of (model, system, user). */
export interface LLMResponseCache {
  /** Wraps a client: identical prompts are answered from the table, at zero tokens. */
  wrap(llm: LLMClient): LLMClient
  /** Prompts answered from the table since creation. */
  readonly hits: number
  /** Prompts that reached the wrapped client. */
  readonly misses: number
}

/** The cache key of a prompt. */
export function llmCacheKey(model: string, system: string, user: string): string {
  return createHash('sha256')
    .update(JSON.stringify([model, system, user]))
    .digest('hex')
}

/**
 * Creates a persistent response cache: a dream re-run after a crash (or a replay for debugging) sends no
 * prompt twice. Only successful answers are stored.
 *
 * @example
 * const cache = createLLMResponseCache({ store })
 * const extractor = createLLMExtractor({ llm: cache.wrap(llm) })
 * await dream({ store, workspaceId, extractor, llmCache: cache, markdown })
 */
export function createLLMResponseCache(options: { store: Store }): LLMResponseCache {
  const { store } = options
  let hits = 0
  let misses = 0
  return {
    get hits() {
      return hits
    },
    get misses() {
      return misses
    },
    wrap(llm) {
      return {
        name: `cached:${llm.name}`,
        model: llm.model,
        async complete(req): Promise<LLMCompletion> {
          const key = llmCacheKey(llm.model, req.system, req.user)
          const cached = await store.llmCache.get(key)
          if (cached) {
            hits++
            return {
              text: cached.response,
              model: cached.model,
              usage: { promptTokens: 0, completionTokens: 0 },
            }
          }
          const answer = await llm.complete(req)
          misses++
          await store.llmCache.put(key, { model: llm.model, response: answer.text, usage: answer.usage })
          return answer
        },
      }
    },
  }
}
