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
 * Never throws; `doctor` prints the outcome.
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
  let response: Response
  try {
    response = await fetcher(url, {
      headers: { authorization: `Bearer ${options.apiKey}` },
      signal: AbortSignal.timeout(options.timeoutMs ?? PROBE_TIMEOUT_MS),
    })
  } catch (error) {
    return { outcome: 'unreachable', detail: `cannot reach ${options.baseUrl}: ${(error as Error).message}` }
  }
  await response.body?.cancel()
  if (response.status === 401 || response.status === 403) {
    return { outcome: 'rejected', detail: `${url} answered ${response.status}` }
  }
  if (response.ok) return { outcome: 'ok', detail: `${options.baseUrl} accepted the key` }
  return { outcome: 'inconclusive', detail: `${url} answered ${response.status}` }
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
    throw new HyMemError(options.code, `key rejected by ${options.baseUrl}: check ${options.variable}`)
  }
  return probe
}
