import { maskSecrets } from '@hymem/core-store'
import type { EmbeddingClient } from '@hymem/extraction'
import { createHyMem } from '../create-hymem'
import { _noopLog, type HyMemLog } from '../log'
import type { HyMem } from '../types'
import { checkKey } from './check-key'
import { embeddingsFromConfig, facadeOptionsFromConfig, llmFromConfig } from './clients'
import type { HyMemConfig } from './types'

/** Options of {@link createHyMemFromConfig}. */
export interface FromConfigOptions {
  readonly log?: HyMemLog
  readonly clock?: () => Date
  /** Skip the start-up probe of a configured LLM key (offline use, tests). @default false */
  readonly skipKeyCheck?: boolean
  /** Injected into the HTTP clients and the key probe (tests). */
  readonly fetch?: typeof globalThis.fetch
  /**
   * Where dream cycles run: on this thread (`process`), or in a worker thread with its own connection that
   * rebuilds the extractor and embedder from this config (`worker`: servers stay responsive while they
   * dream). `worker` takes neither `clock` nor `fetch`, which cannot cross into the worker. @default 'process'
   */
  readonly dreamIn?: 'process' | 'worker'
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
  const clientOptions = { log, ...(options.fetch ? { fetch: options.fetch } : {}) }
  if (config.llm.apiKey !== null && options.skipKeyCheck !== true) {
    const outcome = await checkKey({
      baseUrl: config.llm.baseUrl,
      apiKey: config.llm.apiKey,
      variable: config.llm.apiKeySource ?? 'HYMEM_LLM_API_KEY',
      code: 'LLM_KEY_REJECTED',
      ...clientOptions,
    })
    log({
      kind: 'key-check',
      level: outcome.outcome === 'ok' ? 'info' : 'warn',
      url: maskSecrets(config.llm.baseUrl),
      ...outcome,
    })
  }
  const llm = llmFromConfig(config, clientOptions)
  const embeddings = await embeddingClient(config, options)
  return createHyMem({
    ...facadeOptionsFromConfig(config),
    llm,
    ...(embeddings !== undefined ? { embeddings } : {}),
    log,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.dreamIn === 'worker' ? { dreamIn: { worker: config } } : {}),
  })
}

/** The configured embedder; undefined for an offline model the config leaves open (the store decides). */
async function embeddingClient(
  config: HyMemConfig,
  options: FromConfigOptions,
): Promise<EmbeddingClient | null | undefined> {
  const { embedding } = config
  if (embedding.provider === 'local' && embedding.localModel === null) return undefined
  const log = options.log ?? _noopLog
  if (
    embedding.provider === 'openai-compatible' &&
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
  return embeddingsFromConfig(config, { log, ...(options.fetch ? { fetch: options.fetch } : {}) })
}
