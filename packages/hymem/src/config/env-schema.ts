import { LOCAL_EMBEDDING_MODELS } from '@hymem/extraction/local'
import * as v from 'valibot'

/** Embedding back ends selectable with `HYMEM_EMBEDDING_PROVIDER`. */
export const EMBEDDING_PROVIDERS = ['local', 'openai-compatible', 'fake', 'none'] as const
export type EmbeddingProvider = (typeof EMBEDDING_PROVIDERS)[number]

/** Levels accepted by `HYMEM_LOG_LEVEL`, quietest first. */
export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export const WORKSPACE_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

const nonEmpty = () => v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty'))

const text = (description: string, fallback: string) =>
  v.pipe(v.optional(nonEmpty(), fallback), v.description(description))

const optionalText = (description: string) => v.pipe(v.optional(nonEmpty()), v.description(description))

const httpUrl = (name: string, description: string, fallback: string) =>
  v.pipe(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.check(isHttpUrl, `must be an http:// or https:// URL, e.g. ${name}=https://api.openai.com/v1`),
        v.transform((value) => value.replace(/\/+$/, '')),
      ),
      fallback,
    ),
    v.description(description),
  )

const integer = (
  name: string,
  description: string,
  range: { min: number; max: number; example: number },
  fallback: number,
) => {
  const hint = `must be a whole number from ${range.min} to ${range.max}, e.g. ${name}=${range.example}`
  const parsed = v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d+$/, hint),
    v.transform(Number),
    v.minValue(range.min, hint),
    v.maxValue(range.max, hint),
  )
  return v.pipe(v.optional(parsed, String(fallback)), v.description(description))
}

/**
 * The one schema of every environment variable HyMem reads. Keys are the variable names, so flattened issue
 * paths name the variable to fix. Values arrive as strings; empty strings are treated as unset beforehand.
 */
export const ENV_SCHEMA = v.object({
  HYMEM_ROOT: text('Folder for hymem.sqlite, MEMORY.md and USER.md; `~` expands to HOME.', '~/.hermes'),
  HYMEM_DATABASE_URL: v.pipe(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.regex(
          /^(postgres(ql)?:\/\/|pglite:)/i,
          'must be a postgres:// or postgresql:// URL, e.g. HYMEM_DATABASE_URL=postgres://hymem:secret@db:5432/hymem (pglite:<dir> for tests)',
        ),
      ),
    ),
    v.description(
      'PostgreSQL + pgvector instead of the SQLite file: postgres://user:password@host:5432/database. Unset: hymem.sqlite under HYMEM_ROOT.',
    ),
  ),
  HYMEM_WORKSPACE: v.pipe(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.regex(
          WORKSPACE_ID,
          'must be 1-128 letters, digits, `_`, `.`, `:` or `-`, starting with a letter or digit, e.g. HYMEM_WORKSPACE=default',
        ),
      ),
      'default',
    ),
    v.description('Default workspace for calls that do not name one.'),
  ),
  HYMEM_LLM_API_KEY: optionalText(
    'API key of the extraction LLM. Unset: rule-based extraction, no LLM calls.',
  ),
  DEEPSEEK_API_KEY: optionalText('Fallback for HYMEM_LLM_API_KEY (the walkthrough default provider).'),
  HYMEM_LLM_BASE_URL: httpUrl(
    'HYMEM_LLM_BASE_URL',
    'OpenAI-compatible endpoint of the LLM (DeepSeek, OpenAI, Ollama, vLLM, ...).',
    'https://api.deepseek.com',
  ),
  HYMEM_LLM_MODEL: text('Chat model used for extraction, reranking and chat answers.', 'deepseek-chat'),
  HYMEM_LLM_CONCURRENCY: integer(
    'HYMEM_LLM_CONCURRENCY',
    'Most LLM requests in flight at once while dreaming.',
    { min: 1, max: 64, example: 4 },
    4,
  ),
  HYMEM_EMBEDDING_PROVIDER: v.pipe(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.toLowerCase(),
        v.picklist(
          EMBEDDING_PROVIDERS,
          `must be one of ${EMBEDDING_PROVIDERS.join(', ')}, e.g. HYMEM_EMBEDDING_PROVIDER=local`,
        ),
      ),
      'local',
    ),
    v.description(
      'Embedding back end: local (an offline model, see HYMEM_EMBEDDING_LOCAL_MODEL), openai-compatible, fake (tests) or none (keyword + graph only).',
    ),
  ),
  HYMEM_EMBEDDING_LOCAL_MODEL: v.pipe(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.toLowerCase(),
        v.picklist(
          LOCAL_EMBEDDING_MODELS,
          `must be one of ${LOCAL_EMBEDDING_MODELS.join(', ')}, e.g. HYMEM_EMBEDDING_LOCAL_MODEL=minilm`,
        ),
      ),
    ),
    v.description(
      'Offline model of provider local: minilm (all-MiniLM-L6-v2, 384-d), minilm-int8 (the same with int8 weights, the fastest) or use-lite (USE-lite, 512-d). Unset: the model the stored vectors were made with, else minilm.',
    ),
  ),
  HYMEM_EMBEDDING_API_KEY: optionalText('API key of the embedding endpoint; falls back to the LLM key.'),
  HYMEM_EMBEDDING_BASE_URL: httpUrl(
    'HYMEM_EMBEDDING_BASE_URL',
    'OpenAI-compatible embedding endpoint (provider openai-compatible).',
    'https://api.deepseek.com',
  ),
  HYMEM_EMBEDDING_MODEL: text('Embedding model (provider openai-compatible).', 'deepseek-embedding'),
  HYMEM_HONCHO_HOST: text('Address the Honcho-compatible server binds to.', '127.0.0.1'),
  HYMEM_HONCHO_PORT: integer(
    'HYMEM_HONCHO_PORT',
    'Port of the Honcho-compatible server.',
    { min: 1, max: 65535, example: 8765 },
    8765,
  ),
  HYMEM_DREAM: v.pipe(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.toLowerCase(),
        v.picklist(['on', 'off'], 'must be on or off, e.g. HYMEM_DREAM=off'),
      ),
      'on',
    ),
    v.description(
      'off: the server never dreams (leave it to `hymem worker` processes on the same database).',
    ),
  ),
  HYMEM_DREAM_COOLDOWN_SECONDS: integer(
    'HYMEM_DREAM_COOLDOWN_SECONDS',
    'Least seconds between two background dreams.',
    { min: 0, max: 86_400, example: 60 },
    60,
  ),
  HYMEM_AUTH_TOKENS: optionalText(
    'Bearer tokens and the workspaces each may use: `token=ws1,ws2;token2=*`. Required beyond loopback.',
  ),
  HYMEM_ALLOWED_HOSTS: optionalText(
    'Host names the server answers to besides localhost, 127.0.0.1 and [::1]: `memory.example.com,10.0.0.5`. Required beyond loopback; other names get 421.',
  ),
  HYMEM_CORS_ORIGINS: optionalText(
    'Web origins granted CORS (credentials off): `https://app.example.com`. None by default.',
  ),
  HYMEM_PROMPT_VERSION: optionalText(
    'Overrides the extraction prompt version; bumping it reprocesses every chunk.',
  ),
  HYMEM_DREAM_BUDGET: integer(
    'HYMEM_DREAM_BUDGET',
    'Most chunks extracted per dreaming cycle.',
    { min: 1, max: 1_000_000, example: 50 },
    50,
  ),
  HYMEM_SEARCH_LOG_RETENTION_DAYS: integer(
    'HYMEM_SEARCH_LOG_RETENTION_DAYS',
    'Days of search log each dream keeps (0 keeps any age).',
    { min: 0, max: 36_500, example: 90 },
    90,
  ),
  HYMEM_SEARCH_LOG_MAX_ROWS: integer(
    'HYMEM_SEARCH_LOG_MAX_ROWS',
    'Newest search-log rows each dream keeps per workspace (0 keeps any number).',
    { min: 0, max: 1_000_000_000, example: 100_000 },
    100_000,
  ),
  HYMEM_LLM_CACHE_RETENTION_DAYS: integer(
    'HYMEM_LLM_CACHE_RETENTION_DAYS',
    'Days an LLM response stays cached (0 keeps any age).',
    { min: 0, max: 36_500, example: 30 },
    30,
  ),
  HYMEM_LLM_CACHE_MAX_ROWS: integer(
    'HYMEM_LLM_CACHE_MAX_ROWS',
    'Newest LLM responses kept in the cache, over all workspaces (0 keeps any number).',
    { min: 0, max: 1_000_000_000, example: 50_000 },
    50_000,
  ),
  HYMEM_LOG_LEVEL: v.pipe(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.toLowerCase(),
        v.picklist(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}, e.g. HYMEM_LOG_LEVEL=info`),
      ),
      'info',
    ),
    v.description('Least severe log event the apps print.'),
  ),
})

/** The parsed (not yet normalised) environment. */
export type ParsedEnv = v.InferOutput<typeof ENV_SCHEMA>

/** One documented variable: name, description and default (for `doctor`, `--help` and the README). */
export interface EnvVariable {
  readonly name: string
  readonly description: string
  readonly default: string | null
}

/** Every variable of {@link ENV_SCHEMA}, in schema order. */
export const ENV_VARIABLES: readonly EnvVariable[] = Object.freeze(
  Object.entries(ENV_SCHEMA.entries).map(([name, schema]) => {
    const fallback = v.getDefault(schema.pipe[0] as v.GenericSchema)
    return Object.freeze({
      name,
      description: v.getDescription(schema) ?? '',
      default: fallback === undefined ? null : String(fallback),
    })
  }),
)
