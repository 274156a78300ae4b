import { _throwIfAborted } from '../errors'
import type { LLMClient, LLMUsage } from '../llm/types'
import { ZERO_USAGE } from '../llm/types'
import { parseRerankAnswer } from '../parse/rerank'
import { buildRerankPrompt } from '../prompts/rerank'

/** Scores candidates against a query with an LLM. */
export interface LLMReranker {
  /**
   * Scores each candidate 1 (unrelated) to 5 (answers the query). Candidates the model skipped are absent
   * from `scores`; with no candidates no call is made.
   */
  rerank(
    query: string,
    candidates: readonly { id: string; text: string }[],
    opts?: { signal?: AbortSignal },
  ): Promise<{ scores: Map<string, number>; usage: LLMUsage }>
}

/**
 * Creates an LLM reranker (one call per `rerank`, JSON answer validated and clamped to 1..5).
 *
 * @example
 * const { scores } = await createLLMReranker({ llm }).rerank('which database?', [{ id: 'c1', text: 'We use Postgres' }])
 */
export function createLLMReranker(options: { llm: LLMClient; maxTokens?: number }): LLMReranker {
  return {
    async rerank(query, candidates, opts) {
      _throwIfAborted(opts?.signal)
      if (candidates.length === 0) return { scores: new Map(), usage: ZERO_USAGE }
      const answer = await options.llm.complete({
        ...buildRerankPrompt(query, candidates),
        json: true,
        temperature: 0,
        maxTokens: options.maxTokens ?? 50 + 20 * candidates.length,
        ...(opts?.signal ? { signal: opts.signal } : {}),
      })
      return {
        scores: parseRerankAnswer(
          answer.text,
          candidates.map((c) => c.id),
        ),
        usage: answer.usage,
      }
    },
  }
}
