import { _throwIfAborted } from '../errors'
import type { LLMClient } from '../llm/types'
import { ZERO_USAGE } from '../llm/types'
import { attributeFacts } from '../parse/attribute'
import { parseEpisodesAnswer } from '../parse/episodes'
import { _dedupeTriples, parseFactsAnswer } from '../parse/facts'
import { parseProceduresAnswer } from '../parse/procedures'
import { parseSummaryAnswer } from '../parse/summary'
import { buildEpisodesPrompt } from '../prompts/episodes'
import { buildFactsPrompt } from '../prompts/facts'
import { buildProceduresPrompt } from '../prompts/procedures'
import { buildSummaryPrompt } from '../prompts/summary'
import { PROMPT_VERSION } from '../prompts/version'
import { readSpeakers } from '../speakers/read-speakers'
import type { Extractor } from './types'

/** Options of {@link createLLMExtractor}. */
export interface LLMExtractorOptions {
  llm: LLMClient
  /** Overrides {@link PROMPT_VERSION}, e.g. to force reprocessing after a model change. */
  promptVersion?: string
  /** Completion token cap per call. @default 2000 */
  maxTokens?: number
}

/**
 * An {@link Extractor} backed by an LLM: one call per method, JSON answers validated by the parsers (bad
 * items are dropped and counted, never thrown). Client errors (auth, unreachable, ...) propagate as
 * `ExtractionError`s so dreaming can stop or retry.
 *
 * @example
 * const extractor = createLLMExtractor({ llm: createOpenAICompatibleLLM({ apiKey }) })
 * const { triples, markers, usage } = await extractor.extractFacts({ text: chunk })
 */
export function createLLMExtractor(options: LLMExtractorOptions): Extractor {
  const { llm } = options
  const maxTokens = options.maxTokens ?? 2000
  const ask = (prompt: { system: string; user: string }, signal: AbortSignal | undefined) =>
    llm.complete({ ...prompt, json: true, maxTokens, temperature: 0, ...(signal ? { signal } : {}) })

  return {
    name: `llm:${llm.model}`,
    promptVersion: options.promptVersion ?? PROMPT_VERSION,

    async extractFacts(input, opts) {
      _throwIfAborted(opts?.signal)
      const speakers = readSpeakers(input)
      const empty = speakers?.turns.length
        ? speakers.turns.every((t) => t.text.trim() === '')
        : input.text.trim() === ''
      if (empty) {
        return {
          triples: [],
          markers: [],
          entityTypes: [],
          dropped: { triples: 0, markers: 0 },
          usage: ZERO_USAGE,
          llmCalls: 0,
        }
      }
      const answer = await ask(buildFactsPrompt(input), opts?.signal)
      const parsed = parseFactsAnswer(answer.text)
      const facts = speakers
        ? attributeFacts(parsed, speakers)
        : {
            ...parsed,
            markers: parsed.markers.map(({ peerId: _unasked, ...m }) => m),
            dropped: { triples: 0, markers: 0 },
          }
      return {
        triples: _dedupeTriples(facts.triples),
        markers: facts.markers,
        entityTypes: facts.entityTypes,
        dropped: {
          triples: parsed.dropped.triples + facts.dropped.triples,
          markers: parsed.dropped.markers + facts.dropped.markers,
        },
        usage: answer.usage,
        llmCalls: 1,
      }
    },

    async extractEpisodes(input, opts) {
      _throwIfAborted(opts?.signal)
      if (input.chunks.length === 0) return { episodes: [], usage: ZERO_USAGE, llmCalls: 0 }
      const answer = await ask(buildEpisodesPrompt(input), opts?.signal)
      const parsed = parseEpisodesAnswer(
        answer.text,
        input.chunks.map((c) => c.id),
      )
      return { episodes: parsed.episodes, usage: answer.usage, llmCalls: 1 }
    },

    async extractProcedures(input, opts) {
      _throwIfAborted(opts?.signal)
      if (input.text.trim() === '') return { procedures: [], usage: ZERO_USAGE, llmCalls: 0 }
      const answer = await ask(buildProceduresPrompt(input), opts?.signal)
      return { procedures: parseProceduresAnswer(answer.text).procedures, usage: answer.usage, llmCalls: 1 }
    },

    async summarizeSession(input, opts) {
      _throwIfAborted(opts?.signal)
      if (input.transcript.trim() === '') return { summary: null, usage: ZERO_USAGE, llmCalls: 0 }
      const answer = await ask(buildSummaryPrompt(input), opts?.signal)
      return { summary: parseSummaryAnswer(answer.text).summary, usage: answer.usage, llmCalls: 1 }
    },
  }
}
