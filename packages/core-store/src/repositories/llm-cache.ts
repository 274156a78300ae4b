import { StoreError } from '../kernel/errors'
import { requireText } from './checks'
import type { RepositoryScope } from './scope'
import { outsideBounds, requireTrimBounds, type TrimBounds } from './trim-bounds'

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
  /** Deletes up to `bounds.limit` of the oldest answers outside `bounds`; returns how many went. */
  trim(bounds: TrimBounds): Promise<number>
  /** How many answers are stored. */
  count(): Promise<number>
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
    async trim(bounds) {
      const { before, keepNewest, limit } = requireTrimBounds(bounds)
      const edge =
        keepNewest === null
          ? undefined
          : await db
              .selectFrom('llm_cache')
              .select(['created_at', 'key'])
              .orderBy('created_at', 'desc')
              .orderBy('key', 'desc')
              .limit(1)
              .offset(keepNewest)
              .executeTakeFirst()
      if (before === null && edge === undefined) return 0
      return scope.write(async (tx) => {
        const victims = tx
          .selectFrom('llm_cache')
          .select('key')
          .where(outsideBounds(before, edge && { createdAt: edge.created_at, tiebreak: edge.key }, 'key'))
          .limit(limit)
        const result = await tx.deleteFrom('llm_cache').where('key', 'in', victims).executeTakeFirst()
        return Number(result.numDeletedRows)
      })
    },
    async count() {
      const row = await db
        .selectFrom('llm_cache')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },
  }
}
