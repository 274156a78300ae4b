import type { LocalEmbeddingModel } from '@hymem/extraction/local'
import type { EmbeddingProvider, LogLevel } from './env-schema'

/** A bearer token and the workspaces it may use (`'*'`: all of them). */
export interface AuthToken {
  readonly token: string
  readonly workspaces: '*' | readonly string[]
}

/** The resolved configuration, as built by `configFromEnv` (or by hand) and consumed by `createHyMemFromConfig`. */
export interface HyMemConfig {
  /** Folder for hymem.sqlite, MEMORY.md and USER.md (absolute). */
  readonly root: string
  /** `${root}/hymem.sqlite`. */
  readonly databasePath: string
  /** HYMEM_DATABASE_URL: a PostgreSQL (or `pglite:`) URL; null: the SQLite file `databasePath`. */
  readonly databaseUrl: string | null
  /**
   * On PostgreSQL, whether USER.md / MEMORY.md are also written under `root` as a mirror (HYMEM_ROOT was
   * set). Always true on SQLite, where the files are the memory.
   */
  readonly markdownMirror: boolean
  /** Default workspace. */
  readonly workspaceId: string
  readonly llm: {
    /** null: no LLM, rule-based extraction. */
    readonly apiKey: string | null
    /** Which variable the key came from. */
    readonly apiKeySource: 'HYMEM_LLM_API_KEY' | 'DEEPSEEK_API_KEY' | null
    readonly baseUrl: string
    readonly model: string
    readonly concurrency: number
  }
  readonly embedding: {
    readonly provider: EmbeddingProvider
    /**
     * The offline model of provider `local`; null when not chosen: the model a memory's stored vectors were
     * made with (so a memory made under an earlier default needs no re-index), else `minilm`.
     */
    readonly localModel: LocalEmbeddingModel | null
    /** Key for provider `openai-compatible` (null for the others, or for a keyless local server). */
    readonly apiKey: string | null
    readonly apiKeySource: 'HYMEM_EMBEDDING_API_KEY' | 'HYMEM_LLM_API_KEY' | 'DEEPSEEK_API_KEY' | null
    readonly baseUrl: string
    readonly model: string
  }
  readonly honcho: {
    readonly host: string
    readonly port: number
    /** Whether `host` only accepts local connections. */
    readonly loopback: boolean
    /** Host names requests may name besides the loopback names (`HYMEM_ALLOWED_HOSTS`). */
    readonly allowedHosts: readonly string[]
    /** Origins granted CORS (`HYMEM_CORS_ORIGINS`); empty: none. */
    readonly corsOrigins: readonly string[]
  }
  readonly dream: {
    /** False (`HYMEM_DREAM=off`): servers never dream; `hymem worker` processes do. */
    readonly enabled: boolean
    readonly cooldownSeconds: number
    readonly budget: number
    /** null: the extractor's own prompt version. */
    readonly promptVersion: string | null
    /** The bounds dreams trim the search log and the LLM cache to (days and rows; 0 keeps everything). */
    readonly retention: {
      readonly searchLogDays: number
      readonly searchLogRows: number
      readonly llmCacheDays: number
      readonly llmCacheRows: number
    }
  }
  /** Empty: no authentication (allowed on loopback only). */
  readonly authTokens: readonly AuthToken[]
  readonly logLevel: LogLevel
}

/** What `configFromEnv` returns: a config always (defaults where a value was bad), plus what to tell the user. */
export interface ConfigResult {
  readonly config: HyMemConfig
  /** Suspicious but usable settings, one line each. */
  readonly warnings: readonly string[]
  /** Settings that must be fixed before starting, one line each, naming the variable and the fix. */
  readonly errors: readonly string[]
}
