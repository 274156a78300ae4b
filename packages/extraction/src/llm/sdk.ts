import OpenAI from 'openai'

/** Longest `Retry-After` the clients will honour; longer requests are clamped so a call never stalls for hours. */
export const MAX_RETRY_AFTER_MS = 60_000

/** Wraps fetch so a `Retry-After` / `retry-after-ms` longer than `maxMs` is clamped to it. */
export function _clampRetryAfter(inner: typeof fetch, maxMs: number): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init)
    if (res.status !== 429 && res.status < 500) return res
    const seconds = Number(res.headers.get('retry-after'))
    const ms = Number(res.headers.get('retry-after-ms'))
    const asked =
      Number.isFinite(ms) && res.headers.has('retry-after-ms')
        ? ms
        : Number.isFinite(seconds)
          ? seconds * 1000
          : 0
    if (asked <= maxMs) return res
    const headers = new Headers(res.headers)
    headers.delete('retry-after')
    headers.set('retry-after-ms', String(maxMs))
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers })
  }
}

/**
 * Builds the SDK client with everything explicit, so no `OPENAI_*` environment variable (base URL,
 * organisation, project, log level) leaks into a HyMem package, and the SDK never logs to the console.
 */
export function _createSdk(o: {
  apiKey: string
  baseURL: string
  timeoutMs: number
  maxRetries: number
  maxRetryAfterMs: number
  fetch: typeof fetch | undefined
}): OpenAI {
  return new OpenAI({
    apiKey: o.apiKey,
    baseURL: o.baseURL,
    organization: null,
    project: null,
    timeout: o.timeoutMs,
    maxRetries: o.maxRetries,
    logLevel: 'off',
    fetch: _clampRetryAfter(o.fetch ?? globalThis.fetch, o.maxRetryAfterMs),
  })
}
