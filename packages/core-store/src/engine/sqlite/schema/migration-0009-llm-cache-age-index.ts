/** The LLM response cache ordered by age, so dreams trim it to its configured age and size without a scan. */
export const MIGRATION_0009_LLM_CACHE_AGE_INDEX = `
CREATE INDEX llm_cache_created ON llm_cache (created_at, key);
`
