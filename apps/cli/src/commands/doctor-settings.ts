import { DEFAULT_LOCAL_EMBEDDING_MODEL, type LocalEmbeddingModel } from '@hymem/extraction/local'
import { type HyMemConfig, redactConfig } from 'hymem'
import type { GlobalOptions } from '../program'

/**
 * The resolved settings as `VARIABLE → value`, secrets masked; values nobody set are marked `(default)` and
 * values from flags name the flag.
 */
export function describeSettings(
  config: HyMemConfig,
  env: Readonly<Record<string, string | undefined>>,
  global: GlobalOptions,
  /** The offline model the database resolved an unset HYMEM_EMBEDDING_LOCAL_MODEL to. */
  localModel?: LocalEmbeddingModel,
): Record<string, string> {
  const masked = redactConfig(config)
  const given = (name: string) => (env[name] ?? '').trim() !== ''
  const origin = (name: string, flag?: string) => (flag ? ` (${flag})` : given(name) ? '' : ' (default)')
  const settings: Record<string, string> = {
    HYMEM_ROOT: `${config.root}${origin('HYMEM_ROOT', global.root !== undefined ? '--root' : undefined)}`,
    database: masked.databaseUrl ?? config.databasePath,
    HYMEM_WORKSPACE: `${config.workspaceId}${origin('HYMEM_WORKSPACE', global.workspace !== undefined ? '--workspace' : undefined)}`,
    HYMEM_LLM_API_KEY:
      config.llm.apiKey === null
        ? 'not set'
        : `set (${masked.llm.apiKey})${config.llm.apiKeySource && config.llm.apiKeySource !== 'HYMEM_LLM_API_KEY' ? ` from ${config.llm.apiKeySource}` : ''}`,
    HYMEM_LLM_BASE_URL: `${masked.llm.baseUrl}${origin('HYMEM_LLM_BASE_URL')}`,
    HYMEM_LLM_MODEL: `${config.llm.model}${origin('HYMEM_LLM_MODEL')}`,
    HYMEM_LLM_CONCURRENCY: `${config.llm.concurrency}${origin('HYMEM_LLM_CONCURRENCY')}`,
    HYMEM_EMBEDDING_PROVIDER: `${config.embedding.provider}${origin('HYMEM_EMBEDDING_PROVIDER')}`,
  }
  if (config.embedding.provider === 'local') {
    settings.HYMEM_EMBEDDING_LOCAL_MODEL = describeLocalModel(config.embedding.localModel, localModel)
  }
  if (config.embedding.provider === 'openai-compatible') {
    settings.HYMEM_EMBEDDING_API_KEY =
      config.embedding.apiKey === null
        ? 'not set'
        : `set (${masked.embedding.apiKey})${config.embedding.apiKeySource && config.embedding.apiKeySource !== 'HYMEM_EMBEDDING_API_KEY' ? ` from ${config.embedding.apiKeySource}` : ''}`
    settings.HYMEM_EMBEDDING_BASE_URL = `${masked.embedding.baseUrl}${origin('HYMEM_EMBEDDING_BASE_URL')}`
    settings.HYMEM_EMBEDDING_MODEL = `${config.embedding.model}${origin('HYMEM_EMBEDDING_MODEL')}`
  }
  settings.HYMEM_HONCHO_HOST = `${config.honcho.host}${origin('HYMEM_HONCHO_HOST')}`
  settings.HYMEM_HONCHO_PORT = `${config.honcho.port}${origin('HYMEM_HONCHO_PORT')}`
  settings.HYMEM_DREAM_COOLDOWN_SECONDS = `${config.dream.cooldownSeconds}${origin('HYMEM_DREAM_COOLDOWN_SECONDS')}`
  settings.HYMEM_DREAM_BUDGET = `${config.dream.budget}${origin('HYMEM_DREAM_BUDGET')}`
  settings.HYMEM_PROMPT_VERSION = config.dream.promptVersion ?? "the extractor's own (default)"
  settings.HYMEM_AUTH_TOKENS =
    config.authTokens.length === 0
      ? 'none'
      : `${config.authTokens.length} token${config.authTokens.length === 1 ? '' : 's'} (values hidden)`
  settings.HYMEM_LOG_LEVEL = `${config.logLevel}${origin('HYMEM_LOG_LEVEL')}`
  return settings
}

function describeLocalModel(
  chosen: LocalEmbeddingModel | null,
  resolved: LocalEmbeddingModel | undefined,
): string {
  if (chosen) return chosen
  if (!resolved || resolved === DEFAULT_LOCAL_EMBEDDING_MODEL)
    return `${DEFAULT_LOCAL_EMBEDDING_MODEL} (default)`
  return `${resolved} (not set: the model of the stored vectors)`
}
