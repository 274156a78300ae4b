import { _throwIfAborted } from '../errors'
import { ZERO_USAGE } from '../llm/types'
import { episodesByRules } from '../rules/episodes'
import { extractFactsByRules } from '../rules/extract-facts'
import { proceduresByRules } from '../rules/procedures'
import { speakerFactsByRules } from '../rules/speaker-facts'
import { summaryByRules } from '../rules/summary'
import { readSpeakers } from '../speakers/read-speakers'
import type { Extractor } from './types'

/** Version of the rule set; bump it when rule changes should reprocess old chunks. */
export const RULES_VERSION = 'rules-v3'

/** Options of {@link createRulesExtractor}. */
export interface RulesExtractorOptions {
  /** Overrides {@link RULES_VERSION}. */
  promptVersion?: string
}

/** A letter of a script other than Latin. */
const UNREADABLE = /(?=\p{L})\P{Script=Latin}/u

/**
 * The deterministic, model-free {@link Extractor} (English). It is what runs when no LLM key is configured:
 * pattern-based triples for the predicates people state plainly, behavioural markers, lexicon entity types,
 * topical episodes, list/sequence procedures and a one-sentence summary. Never calls a model: usage is zero.
 *
 * @example
 * const { triples } = await createRulesExtractor().extractFacts({ text: "I'm working on MedFlow." })
 * // [{ subject: 'user', predicate: 'part_of', object: 'MedFlow', polarity: 1, ... }]
 */
export function createRulesExtractor(options: RulesExtractorOptions = {}): Extractor {
  return {
    name: 'rules',
    promptVersion: options.promptVersion ?? RULES_VERSION,
    async extractFacts(input, opts) {
      _throwIfAborted(opts?.signal)
      const speakers = readSpeakers(input)
      const facts = speakers ? speakerFactsByRules(input.text, speakers) : extractFactsByRules(input.text)
      const banned = new Set(
        (input.negativeExamples ?? []).map((n) =>
          `${n.subject}\u0000${n.predicate}\u0000${n.object}`.toLowerCase(),
        ),
      )
      // The rules read English (and Dutch): a fact naming words of another script was not read, only guessed.
      const triples = facts.triples.filter(
        (t) =>
          !banned.has(`${t.subject}\u0000${t.predicate}\u0000${t.object}`.toLowerCase()) &&
          !UNREADABLE.test(t.subject) &&
          !UNREADABLE.test(t.object),
      )
      return {
        triples,
        markers: facts.markers,
        entityTypes: facts.entityTypes.filter((t) => !UNREADABLE.test(t.entity)),
        dropped: { triples: facts.triples.length - triples.length, markers: 0 },
        usage: ZERO_USAGE,
        llmCalls: 0,
      }
    },
    async extractEpisodes(input, opts) {
      _throwIfAborted(opts?.signal)
      return { episodes: episodesByRules(input.chunks), usage: ZERO_USAGE, llmCalls: 0 }
    },
    async extractProcedures(input, opts) {
      _throwIfAborted(opts?.signal)
      return { procedures: proceduresByRules(input.text), usage: ZERO_USAGE, llmCalls: 0 }
    },
    async summarizeSession(input, opts) {
      _throwIfAborted(opts?.signal)
      return { summary: summaryByRules(input.transcript), usage: ZERO_USAGE, llmCalls: 0 }
    },
  }
}
