import type { RepositoryScope } from './scope'

/** The LLM response cache (`llm_cache`). */
// biome-ignore lint/suspicious/noEmptyInterface: methods are added as callers move off raw SQL
export interface LlmCacheRepository {}

export function createLlmCacheRepository(_scope: RepositoryScope): LlmCacheRepository {
  return {}
}
