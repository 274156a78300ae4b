import { StoreError } from '../store/errors'
import { requireText } from './checks'
import type { RepositoryScope } from './scope'

/** A stored LLM answer. */
export interface CachedCompletion {
  readonly model: string
  readonly response: string
}

/** The LLM response cache (`llm_cache`). */
export interface LlmCacheRepository {
  /** The answer stored under `key`, or null. */
  get(key: string): Promise<CachedCompletion | null>
  /** Stores an answer under `key`; an answer already stored there is kept. */
  put(
    key: string,
    completion: CachedCompletion & { usage: { promptTokens: number; completionTokens: number } },
  ): Promise<void>
}

export function createLlmCacheRepository(scope: RepositoryScope): LlmCacheRepository {
  const { db, context } = scope
  return {
    async get(key) {
      requireText(key, 'key')
      const row = await db
        .selectFrom('llm_cache')
        .select(['response', 'model'])
        .where('key', '=', key)
        .executeTakeFirst()
      return row ? { model: row.model, response: row.response } : null
    },
    async put(key, completion) {
      requireText(key, 'key')
      const { model, response } = completion
      if (typeof model !== 'string' || typeof response !== 'string')
        throw new StoreError('INVALID_INPUT', 'model and response must be strings')
      const values = {
        key,
        model,
        response,
        usage: JSON.stringify(completion.usage),
        created_at: context.now(),
      }
      await db
        .insertInto('llm_cache')
        .values(values)
        .onConflict((oc) => oc.doNothing())
        .execute()
    },
  }
}
