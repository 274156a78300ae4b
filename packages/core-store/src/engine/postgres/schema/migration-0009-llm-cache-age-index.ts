/** As SQLite's migration 9: the LLM response cache ordered by age, for trimming. */
export const POSTGRES_MIGRATION_0009_LLM_CACHE_AGE_INDEX = `
CREATE INDEX llm_cache_created ON llm_cache (created_at, key);
`
