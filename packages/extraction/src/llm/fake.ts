import { _throwIfAborted, ExtractionError } from '../errors'
import { estimateTokens, type LLMClient, type LLMCompletion, type LLMRequest } from './types'

/** Options of {@link createFakeLLM}. */
export interface FakeLLMOptions {
  /** Computes the answer text for a request; must be deterministic for deterministic tests. */
  respond: (req: LLMRequest) => string | Promise<string>
  /** @default 'fake-llm' */
  model?: string
}

/** A fake LLM client that also exposes the requests it received. */
export interface FakeLLMClient extends LLMClient {
  /** Number of completed `complete()` calls. */
  readonly calls: number
  /** Every request received, in order (without the signal). */
  readonly requests: readonly Omit<LLMRequest, 'signal'>[]
}

/**
 * A deterministic in-process LLM: answers with `respond(req)`, counts calls and reports usage estimated from
 * the text lengths (~4 characters per token).
 */
export function createFakeLLM(options: FakeLLMOptions): FakeLLMClient {
  const model = options.model ?? 'fake-llm'
  const requests: Omit<LLMRequest, 'signal'>[] = []
  let calls = 0
  return {
    name: `fake:${model}`,
    model,
    get calls() {
      return calls
    },
    requests,
    async complete(req: LLMRequest): Promise<LLMCompletion> {
      _throwIfAborted(req.signal)
      const { signal: _signal, ...rest } = req
      requests.push(rest)
      let text: string
      try {
        text = await options.respond(req)
      } catch (cause) {
        if (cause instanceof ExtractionError) throw cause
        throw new ExtractionError('BAD_RESPONSE', `fake LLM responder failed: ${String(cause)}`, { cause })
      }
      _throwIfAborted(req.signal)
      calls += 1
      return {
        text,
        model,
        usage: {
          promptTokens: estimateTokens(req.system) + estimateTokens(req.user),
          completionTokens: estimateTokens(text),
        },
      }
    },
  }
}
