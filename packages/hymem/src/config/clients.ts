import type { Store } from '@hymem/core-store'
import {
  cachedEmbeddings,
  createFakeEmbeddings,
  createOpenAICompatibleEmbeddings,
  createOpenAICompatibleLLM,
  type EmbeddingClient,
  type ExtractionLogEvent,
  type LLMClient,
} from '@hymem/extraction'
import { HyMemError } from '../errors'
import type { HyMemLog } from '../log'
import type { HyMemOptions } from '../types'
import { resolveLocalModel } from './local-model'
import { offlineEmbeddings } from './offline-embeddings'
import type { HyMemConfig } from './types'

/** How the clients of a config are built: the log they report to and, in tests, an injected `fetch`. */
export interface ClientOptions {
  readonly log: HyMemLog
  readonly fetch?: typeof globalThis.fetch
}

/** {@link ClientOptions} of an embedder: the open store decides the offline model when the config does not. */
export interface EmbeddingClientOptions extends ClientOptions {
  readonly store?: Store
}

/** The facade's extraction events, as debug lines (warnings for errors and JSON-mode fallbacks). */
export function extractionLog(log: HyMemLog): (event: ExtractionLogEvent) => void {
  return (event) =>
    log({
      kind: 'extraction',
      level: event.kind === 'error' || event.kind === 'json_mode_fallback' ? 'warn' : 'debug',
      event,
    })
}

/** The configured LLM client, or null without a key. Never probes the key (see `checkKey`). */
export function llmFromConfig(config: Pick<HyMemConfig, 'llm'>, options: ClientOptions): LLMClient | null {
  if (config.llm.apiKey === null) return null
  return createOpenAICompatibleLLM({
    apiKey: config.llm.apiKey,
    baseURL: config.llm.baseUrl,
    model: config.llm.model,
    concurrency: config.llm.concurrency,
    log: extractionLog(options.log),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  })
}

/**
 * The configured embedding client, or null for provider `none`. Never probes the key. An offline model the
 * config leaves open is the store's (see {@link resolveLocalModel}), or the default without a store.
 */
export async function embeddingsFromConfig(
  config: Pick<HyMemConfig, 'embedding'>,
  options: EmbeddingClientOptions,
): Promise<EmbeddingClient | null> {
  const { embedding } = config
  switch (embedding.provider) {
    case 'none':
      return null
    case 'fake':
      return createFakeEmbeddings()
    case 'local': {
      const model = options.store
        ? await resolveLocalModel(options.store, embedding.localModel)
        : (embedding.localModel ?? undefined)
      return offlineEmbeddings(model)
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
      return cachedEmbeddings(
        createOpenAICompatibleEmbeddings({
          apiKey: embedding.apiKey ?? 'none',
          baseURL: embedding.baseUrl,
          model: embedding.model,
          log: extractionLog(options.log),
          ...(options.fetch ? { fetch: options.fetch } : {}),
        }),
      )
    }
  }
}

/** The `createHyMem` options a config stands for, clients aside. */
export function facadeOptionsFromConfig(
  config: HyMemConfig,
): Pick<
  HyMemOptions,
  | 'root'
  | 'databasePath'
  | 'database'
  | 'markdownMirror'
  | 'workspaceId'
  | 'dream'
  | 'dreamCooldownMs'
  | 'promptVersion'
> {
  return {
    root: config.root,
    databasePath: config.databasePath,
    ...(config.databaseUrl !== null
      ? { database: config.databaseUrl, markdownMirror: config.markdownMirror }
      : {}),
    workspaceId: config.workspaceId,
    dream: {
      dreamBudget: config.dream.budget,
      concurrency: config.llm.concurrency,
      searchLogRetentionDays: config.dream.retention.searchLogDays,
      searchLogMaxRows: config.dream.retention.searchLogRows,
      llmCacheRetentionDays: config.dream.retention.llmCacheDays,
      llmCacheMaxRows: config.dream.retention.llmCacheRows,
    },
    dreamCooldownMs: config.dream.cooldownSeconds * 1000,
    ...(config.dream.promptVersion ? { promptVersion: config.dream.promptVersion } : {}),
  }
}
