import {
  cachedEmbeddings,
  createFakeEmbeddings,
  createOpenAICompatibleEmbeddings,
  createOpenAICompatibleLLM,
  type EmbeddingClient,
  type ExtractionLogEvent,
  type LLMClient,
} from '@hymem/extraction'
import { createHyMem } from '../create-hymem'
import { HyMemError } from '../errors'
import { _noopLog, type HyMemLog } from '../log'
import type { HyMem } from '../types'
import { checkKey } from './check-key'
import type { HyMemConfig } from './types'

/** Options of {@link createHyMemFromConfig}. */
export interface FromConfigOptions {
  readonly log?: HyMemLog
  readonly clock?: () => Date
  /** Skip the start-up probe of a configured LLM key (offline use, tests). @default false */
  readonly skipKeyCheck?: boolean
  /** Injected into the HTTP clients and the key probe (tests). */
  readonly fetch?: typeof globalThis.fetch
}

/**
 * Builds the clients a config asks for and opens the memory. A configured LLM key is probed once
 * (`GET /models`, no tokens spent): a 401/403 fails fast with `HyMemError('LLM_KEY_REJECTED')`; an
 * unreachable endpoint only logs a warning, since the hot path needs no LLM.
 *
 * @example
 * const { config, errors } = configFromEnv(process.env)
 * if (errors.length === 0) {
 *   const memory = await createHyMemFromConfig(config, { log: (e) => process.stderr.write(`${e.kind}\n`) })
 * }
 */
export async function createHyMemFromConfig(
  config: HyMemConfig,
  options: FromConfigOptions = {},
): Promise<HyMem> {
  const log = options.log ?? _noopLog
  const extractionLog = (event: ExtractionLogEvent) =>
    log({
      kind: 'extraction',
      level: event.kind === 'error' || event.kind === 'json_mode_fallback' ? 'warn' : 'debug',
      event,
    })
  const fetchOption = options.fetch ? { fetch: options.fetch } : {}

  let llm: LLMClient | null = null
  if (config.llm.apiKey !== null) {
    if (options.skipKeyCheck !== true) {
      const outcome = await checkKey({
        baseUrl: config.llm.baseUrl,
        apiKey: config.llm.apiKey,
        variable: config.llm.apiKeySource ?? 'HYMEM_LLM_API_KEY',
        code: 'LLM_KEY_REJECTED',
        ...fetchOption,
      })
      log({
        kind: 'key-check',
        level: outcome.outcome === 'ok' ? 'info' : 'warn',
        url: config.llm.baseUrl,
        ...outcome,
      })
    }
    llm = createOpenAICompatibleLLM({
      apiKey: config.llm.apiKey,
      baseURL: config.llm.baseUrl,
      model: config.llm.model,
      concurrency: config.llm.concurrency,
      log: extractionLog,
      ...fetchOption,
    })
  }

  const embeddings = await embeddingClient(config, extractionLog, options)
  return createHyMem({
    root: config.root,
    databasePath: config.databasePath,
    workspaceId: config.workspaceId,
    llm,
    embeddings,
    log,
    ...(options.clock ? { clock: options.clock } : {}),
    dream: { dreamBudget: config.dream.budget, concurrency: config.llm.concurrency },
    dreamCooldownMs: config.dream.cooldownSeconds * 1000,
    ...(config.dream.promptVersion ? { promptVersion: config.dream.promptVersion } : {}),
  })
}

async function embeddingClient(
  config: HyMemConfig,
  log: (event: ExtractionLogEvent) => void,
  options: FromConfigOptions,
): Promise<EmbeddingClient | null> {
  const { embedding } = config
  switch (embedding.provider) {
    case 'none':
      return null
    case 'fake':
      return createFakeEmbeddings()
    case 'local': {
      const { createLocalEmbeddings } = await import('@hymem/extraction/local')
      return cachedEmbeddings(createLocalEmbeddings({ model: embedding.localModel }))
    }
    case 'openai-compatible': {
      if (
        embedding.apiKey === null &&
        !/^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/i.test(`${embedding.baseUrl}/`)
      ) {
        throw new HyMemError(
          'CONFIG',
          'HYMEM_EMBEDDING_PROVIDER=openai-compatible needs HYMEM_EMBEDDING_API_KEY (or HYMEM_LLM_API_KEY)',
        )
      }
      if (
        embedding.apiKey !== null &&
        options.skipKeyCheck !== true &&
        embedding.baseUrl !== config.llm.baseUrl
      ) {
        await checkKey({
          baseUrl: embedding.baseUrl,
          apiKey: embedding.apiKey,
          variable: embedding.apiKeySource ?? 'HYMEM_EMBEDDING_API_KEY',
          code: 'EMBEDDING_KEY_REJECTED',
          ...(options.fetch ? { fetch: options.fetch } : {}),
        })
      }
      return cachedEmbeddings(
        createOpenAICompatibleEmbeddings({
          apiKey: embedding.apiKey ?? 'none',
          baseURL: embedding.baseUrl,
          model: embedding.model,
          log,
          ...(options.fetch ? { fetch: options.fetch } : {}),
        }),
      )
    }
  }
}
