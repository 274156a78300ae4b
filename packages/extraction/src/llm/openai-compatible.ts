import OpenAI from 'openai'
import { _throwIfAborted, ExtractionError } from '../errors'
import { _connectOpenAICompatible, type OpenAICompatibleConnectionOptions } from './connection'
import { _toExtractionError, type EnvHints, LLM_ENV_HINTS } from './provider-errors'
import { estimateTokens, type LLMClient, type LLMCompletion, type LLMRequest } from './types'

/** Options of {@link createOpenAICompatibleLLM}. */
export interface OpenAICompatibleLLMOptions extends OpenAICompatibleConnectionOptions {
  /** API root; `/chat/completions` is appended. @default 'https://api.deepseek.com' */
  baseURL?: string
  /** @default 'deepseek-chat' */
  model?: string
  /** Environment variable names quoted in error messages. @default the HYMEM_LLM_* names */
  envHints?: EnvHints
}

/** Chat endpoint used when no `baseURL` is given (DeepSeek). */
export const DEFAULT_LLM_BASE_URL = 'https://api.deepseek.com'
/** Chat model used when no `model` is given. */
export const DEFAULT_LLM_MODEL = 'deepseek-chat'

const JSON_MODE_REFUSED = /response_format|json_object|json mode/i

/**
 * A chat client for any OpenAI-compatible endpoint (DeepSeek, OpenAI, Ollama, vLLM, ...), built on the
 * `openai` SDK. JSON requests use JSON mode and fall back to plain text when the provider refuses it; the
 * parsers then extract the JSON from the text.
 *
 * @example
 * const llm = createOpenAICompatibleLLM({ apiKey: key, baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini' })
 * const { text, usage } = await llm.complete({ system: 'Answer in JSON.', user: 'hi', json: true })
 */
export function createOpenAICompatibleLLM(options: OpenAICompatibleLLMOptions): LLMClient {
  const { sdk, baseURL, model, name, timeoutMs, hints, log, limit } = _connectOpenAICompatible(options, {
    baseURL: DEFAULT_LLM_BASE_URL,
    model: DEFAULT_LLM_MODEL,
    hints: LLM_ENV_HINTS,
  })
  let jsonModeSupported = true

  async function send(req: LLMRequest, jsonMode: boolean) {
    return sdk.chat.completions.create(
      {
        model,
        messages: [
          { role: 'system', content: req.system },
          { role: 'user', content: req.user },
        ],
        ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
        temperature: req.temperature ?? 0,
        ...(jsonMode ? { response_format: { type: 'json_object' as const } } : {}),
      },
      req.signal ? { signal: req.signal } : {},
    )
  }

  async function attempt(req: LLMRequest): Promise<LLMCompletion> {
    _throwIfAborted(req.signal)
    const started = performance.now()
    const wantJson = req.json === true
    let completion: Awaited<ReturnType<typeof send>>
    try {
      completion = await send(req, wantJson && jsonModeSupported)
    } catch (err) {
      const refusedJson =
        wantJson &&
        jsonModeSupported &&
        err instanceof OpenAI.APIError &&
        (err.status === 400 || err.status === 422) &&
        JSON_MODE_REFUSED.test(err.message)
      if (!refusedJson) throw err
      jsonModeSupported = false
      log({ kind: 'json_mode_fallback', client: name, model, reason: err.message })
      completion = await send(req, false)
    }
    const choice = (completion as { choices?: unknown }).choices
    const message = Array.isArray(choice)
      ? (choice[0] as { message?: { content?: unknown } })?.message
      : undefined
    if (!message || (message.content !== null && typeof message.content !== 'string')) {
      throw new ExtractionError('BAD_RESPONSE', `${baseURL} answered without a chat message (model ${model})`)
    }
    const text = typeof message.content === 'string' ? message.content : ''
    const usage = {
      promptTokens: completion.usage?.prompt_tokens ?? estimateTokens(req.system) + estimateTokens(req.user),
      completionTokens: completion.usage?.completion_tokens ?? estimateTokens(text),
    }
    log({
      kind: 'llm_call',
      client: name,
      model,
      ms: performance.now() - started,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      json: wantJson,
    })
    return {
      text,
      usage,
      model: typeof completion.model === 'string' && completion.model ? completion.model : model,
    }
  }

  return {
    name,
    model,
    complete(req) {
      return limit(async () => {
        try {
          return await attempt(req)
        } catch (err) {
          const e = _toExtractionError(err, {
            baseURL,
            model,
            timeoutMs,
            hints,
            ...(req.signal ? { signal: req.signal } : {}),
          })
          log({ kind: 'error', client: name, model, code: e.code, message: e.message })
          throw e
        }
      })
    },
  }
}
