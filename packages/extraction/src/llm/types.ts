/** Token counts reported by a provider (or estimated by a fake). */
export interface LLMUsage {
  readonly promptTokens: number
  readonly completionTokens: number
}

/** One chat completion request: a system prompt and one user message. */
export interface LLMRequest {
  system: string
  user: string
  /** Ask for a JSON object answer (JSON mode where the provider supports it). */
  json?: boolean
  maxTokens?: number
  temperature?: number
  signal?: AbortSignal
}

/** The answer text, the usage it cost and the model that produced it. */
export interface LLMCompletion {
  text: string
  usage: LLMUsage
  model: string
}

/** A chat model. Implementations: {@link createOpenAICompatibleLLM}, {@link createFakeLLM}. */
export interface LLMClient {
  /** Stable id for logs and `doctor`, e.g. `openai-compatible:deepseek-chat`. */
  readonly name: string
  readonly model: string
  complete(req: LLMRequest): Promise<LLMCompletion>
}

/** The usage of work that made no model call. */
export const ZERO_USAGE: LLMUsage = Object.freeze({ promptTokens: 0, completionTokens: 0 })

/** Adds two usages. */
export function addUsage(a: LLMUsage, b: LLMUsage): LLMUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
  }
}

/** A rough token estimate (~4 characters per token) for providers or fakes that report no usage. */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4)
}
