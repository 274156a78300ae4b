import { maskSecrets } from '@hymem/core-store'
import { HyMemError } from '../errors'

const PROBE_TIMEOUT_MS = 10_000

/** What one key probe found. */
export interface KeyProbe {
  /** `rejected`: 401/403. `inconclusive`: another status (e.g. a provider without `/models`). */
  readonly outcome: 'ok' | 'rejected' | 'unreachable' | 'inconclusive'
  readonly detail: string
}

/**
 * One cheap authenticated request to an OpenAI-compatible endpoint (`GET <baseUrl>/models`, no tokens spent).
 * Never throws; `doctor` prints the outcome, whose detail names the endpoint with its secrets masked.
 *
 * @example
 * const probe = await probeKey({ baseUrl: config.llm.baseUrl, apiKey: config.llm.apiKey })
 * if (probe.outcome === 'rejected') console.error(probe.detail)
 */
export async function probeKey(options: {
  readonly baseUrl: string
  readonly apiKey: string
  readonly fetch?: typeof globalThis.fetch
  readonly timeoutMs?: number
}): Promise<KeyProbe> {
  const fetcher = options.fetch ?? globalThis.fetch
  const url = `${options.baseUrl.replace(/\/+$/, '')}/models`
  const found = (outcome: KeyProbe['outcome'], detail: string): KeyProbe => ({
    outcome,
    detail: maskSecrets(detail),
  })
  let response: Response
  try {
    response = await fetcher(url, {
      headers: { authorization: `Bearer ${options.apiKey}` },
      signal: AbortSignal.timeout(options.timeoutMs ?? PROBE_TIMEOUT_MS),
    })
  } catch (error) {
    return found('unreachable', `cannot reach ${options.baseUrl}: ${(error as Error).message}`)
  }
  await response.body?.cancel()
  if (response.status === 401 || response.status === 403) {
    return found('rejected', `${url} answered ${response.status}`)
  }
  if (response.ok) return found('ok', `${options.baseUrl} accepted the key`)
  return found('inconclusive', `${url} answered ${response.status}`)
}

/** {@link probeKey} that throws `code` ("key rejected by <url>: check <variable>") on a 401/403. */
export async function checkKey(options: {
  baseUrl: string
  apiKey: string
  variable: string
  code: 'LLM_KEY_REJECTED' | 'EMBEDDING_KEY_REJECTED'
  fetch?: typeof globalThis.fetch
}): Promise<KeyProbe> {
  const probe = await probeKey(options)
  if (probe.outcome === 'rejected') {
    throw new HyMemError(
      options.code,
      `key rejected by ${maskSecrets(options.baseUrl)}: check ${options.variable}`,
    )
  }
  return probe
}
