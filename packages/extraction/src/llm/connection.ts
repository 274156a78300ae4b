import type OpenAI from 'openai'
import pLimit, { type LimitFunction } from 'p-limit'
import { ExtractionError } from '../errors'
import { _noopLog, type ExtractionLogger } from '../log'
import type { EnvHints } from './provider-errors'
import { _createSdk, MAX_RETRY_AFTER_MS } from './sdk'

/** The connection settings every OpenAI-compatible client takes. */
export interface OpenAICompatibleConnectionOptions {
  apiKey: string
  /** Per-attempt timeout. @default 60_000 */
  timeoutMs?: number
  /** Retries on 408/409/429/5xx and connection failures, honouring `Retry-After`. @default 3 */
  maxRetries?: number
  /** Maximum requests in flight from this client. @default 4 */
  concurrency?: number
  fetch?: typeof fetch
  /** Cap on a server-requested `Retry-After` wait. @default 60_000 */
  maxRetryAfterMs?: number
  log?: ExtractionLogger
  /** Environment variable names quoted in error messages. */
  envHints?: EnvHints
}

/** What a client needs once its options are resolved: the SDK, its limits, and the names errors quote. */
export interface OpenAICompatibleConnection {
  readonly sdk: OpenAI
  readonly baseURL: string
  readonly model: string
  /** `openai-compatible:<model>`, the client's name in logs and reports. */
  readonly name: string
  readonly timeoutMs: number
  readonly hints: EnvHints
  readonly log: ExtractionLogger
  readonly limit: LimitFunction
}

/** Resolves a client's options against its defaults; a missing API key fails here, naming the variable. */
export function _connectOpenAICompatible(
  options: OpenAICompatibleConnectionOptions & { baseURL?: string; model?: string },
  defaults: { baseURL: string; model: string; hints: EnvHints },
): OpenAICompatibleConnection {
  const baseURL = (options.baseURL ?? defaults.baseURL).replace(/\/+$/, '')
  const model = options.model ?? defaults.model
  const timeoutMs = options.timeoutMs ?? 60_000
  const hints = options.envHints ?? defaults.hints
  if (!options.apiKey) throw new ExtractionError('AUTH', `no API key for ${baseURL}: set ${hints.key}`)
  const sdk = _createSdk({
    apiKey: options.apiKey,
    baseURL,
    timeoutMs,
    maxRetries: options.maxRetries ?? 3,
    maxRetryAfterMs: options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS,
    fetch: options.fetch,
  })
  return {
    sdk,
    baseURL,
    model,
    name: `openai-compatible:${model}`,
    timeoutMs,
    hints,
    log: options.log ?? _noopLog,
    limit: pLimit(Math.max(1, options.concurrency ?? 4)),
  }
}
