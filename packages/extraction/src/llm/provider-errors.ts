import OpenAI from 'openai'
import { ExtractionError } from '../errors'

/** Environment variable names quoted in error messages so users know what to fix. */
export interface EnvHints {
  key: string
  model: string
  baseURL: string
}

export const LLM_ENV_HINTS: EnvHints = {
  key: 'HYMEM_LLM_API_KEY',
  model: 'HYMEM_LLM_MODEL',
  baseURL: 'HYMEM_LLM_BASE_URL',
}

export const EMBEDDING_ENV_HINTS: EnvHints = {
  key: 'HYMEM_EMBEDDING_API_KEY',
  model: 'HYMEM_EMBEDDING_MODEL',
  baseURL: 'HYMEM_EMBEDDING_BASE_URL',
}

function providerMessage(err: InstanceType<typeof OpenAI.APIError>): string {
  const body = err.error as { message?: unknown } | undefined
  if (body && typeof body.message === 'string') return body.message
  return err.message.replace(/^\d{3}\s*/, '')
}

const MODEL_MISSING = /model.*(not[ _]?(found|exist)|does not exist|unknown)|(unknown|invalid) model/i

/** Turns an error thrown by the openai SDK (or fetch) into an actionable {@link ExtractionError}. */
export function _toExtractionError(
  err: unknown,
  ctx: { baseURL: string; model: string; timeoutMs: number; hints: EnvHints; signal?: AbortSignal },
): ExtractionError {
  if (err instanceof ExtractionError) return err
  const { baseURL, model, hints } = ctx
  if (ctx.signal?.aborted || err instanceof OpenAI.APIUserAbortError) {
    return new ExtractionError('ABORTED', `request to ${baseURL} was aborted`, { cause: err })
  }
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return new ExtractionError(
      'TIMEOUT',
      `${baseURL} did not answer within ${ctx.timeoutMs} ms (model ${model}); retry later or raise the timeout`,
      { cause: err },
    )
  }
  if (err instanceof OpenAI.APIConnectionError) {
    const detail = err.cause instanceof Error ? (err.cause.cause ?? err.cause) : err.cause
    const reason = detail instanceof Error ? detail.message : String(detail ?? err.message)
    return new ExtractionError(
      'UNREACHABLE',
      `cannot reach ${baseURL} (${reason}): check ${hints.baseURL} and your network`,
      { cause: err },
    )
  }
  if (err instanceof OpenAI.APIError) {
    const status = err.status ?? 0
    const msg = providerMessage(err)
    if (status === 401 || status === 403) {
      return new ExtractionError('AUTH', `key rejected by ${baseURL} (HTTP ${status}): check ${hints.key}`, {
        cause: err,
        status,
      })
    }
    if (status === 404 || (status === 400 && MODEL_MISSING.test(msg))) {
      return new ExtractionError(
        'MODEL_NOT_FOUND',
        `model ${model} not found at ${baseURL} (HTTP ${status}: ${msg}): check ${hints.model}, and that ${hints.baseURL} is the API root (often ending in /v1)`,
        { cause: err, status },
      )
    }
    if (status === 429) {
      return new ExtractionError(
        'RATE_LIMITED',
        `rate limited by ${baseURL} after retries (HTTP 429: ${msg}): slow down or raise your quota`,
        {
          cause: err,
          status,
        },
      )
    }
    if (status >= 500) {
      return new ExtractionError('SERVER_ERROR', `${baseURL} failed after retries (HTTP ${status}: ${msg})`, {
        cause: err,
        status,
      })
    }
    return new ExtractionError('BAD_REQUEST', `${baseURL} refused the request (HTTP ${status}: ${msg})`, {
      cause: err,
      status,
    })
  }
  if (err instanceof SyntaxError) {
    return new ExtractionError('BAD_RESPONSE', `${baseURL} answered with malformed JSON (${err.message})`, {
      cause: err,
    })
  }
  const message = err instanceof Error ? err.message : String(err)
  return new ExtractionError('BAD_RESPONSE', `unexpected failure talking to ${baseURL}: ${message}`, {
    cause: err,
  })
}
