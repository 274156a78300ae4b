import { HyMemError } from '../errors'

const PROBE_TIMEOUT_MS = 10_000

/** Outcome of a key probe that did not reject the key. */
export interface KeyCheckOutcome {
  readonly outcome: 'ok' | 'unreachable' | 'inconclusive'
  readonly detail: string
}

/**
 * One cheap authenticated request (`GET <baseUrl>/models`, no tokens spent). 401/403 throws `code` with the
 * URL and the variable to fix; anything else is reported, not thrown (a provider without `/models`, a
 * network outage).
 */
export async function checkKey(options: {
  baseUrl: string
  apiKey: string
  variable: string
  code: 'LLM_KEY_REJECTED' | 'EMBEDDING_KEY_REJECTED'
  fetch?: typeof globalThis.fetch
}): Promise<KeyCheckOutcome> {
  const fetcher = options.fetch ?? globalThis.fetch
  let response: Response
  try {
    response = await fetcher(`${options.baseUrl.replace(/\/+$/, '')}/models`, {
      headers: { authorization: `Bearer ${options.apiKey}` },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    })
  } catch (error) {
    return { outcome: 'unreachable', detail: `cannot reach ${options.baseUrl}: ${(error as Error).message}` }
  }
  await response.body?.cancel()
  if (response.status === 401 || response.status === 403) {
    throw new HyMemError(options.code, `key rejected by ${options.baseUrl}: check ${options.variable}`)
  }
  if (response.ok) return { outcome: 'ok', detail: `${options.baseUrl} accepted the key` }
  return { outcome: 'inconclusive', detail: `${options.baseUrl}/models answered ${response.status}` }
}
