import type { LLMUsage } from '../llm/types'
import type { MarkerKind, Predicate } from '../vocabulary'

/**
 * A fact as extracted from one chunk. Subjects and objects are surface forms (dreaming canonicalises them);
 * the speaker is `user` (first person singular) or `team` (we / our team).
 */
export interface ExtractedTriple {
  subject: string
  predicate: Predicate
  object: string
  /** 1 asserts the fact, -1 negates it ("we no longer use X"). */
  polarity: 1 | -1
  valueText?: string
  valueNumeric?: number
  valueUnit?: string
  /** Free-text time qualifier, e.g. "since March", "until the migration". */
  temporalScope?: string
  /** The sentence the fact came from. */
  evidenceText?: string
}

/** An explicit behavioural signal (never mood or emotion inference). */
export interface ExtractedMarker {
  kind: MarkerKind
  statement: string
}

/** A type label for an entity, e.g. { entity: 'postgres', type: 'database' }. */
export interface ExtractedEntityType {
  entity: string
  type: string
}

/** A topical episode of one session, pointing at the chunks it came from. */
export interface ExtractedEpisode {
  title: string
  summary: string
  outcome?: string
  entities: string[]
  chunkIds: number[]
}

/** A step-by-step workflow; steps are numbered 1..n in order. */
export interface ExtractedProcedure {
  name: string
  description: string
  trigger?: string
  steps: { order: number; text: string; tool?: string }[]
  entities: string[]
}

/** A previously retracted triple, injected into the prompt as "do not extract this". */
export interface NegativeExample {
  subject: string
  predicate: string
  object: string
  reason?: string
}

/** Per-call options of an {@link Extractor}. */
export interface ExtractOptions {
  signal?: AbortSignal
}

/** Result of {@link Extractor.extractFacts}. */
export interface ExtractFactsResult {
  triples: ExtractedTriple[]
  markers: ExtractedMarker[]
  entityTypes: ExtractedEntityType[]
  /** Items the parser dropped (unknown predicate or marker kind, missing fields). */
  dropped: { triples: number; markers: number }
  usage: LLMUsage
  /** LLM calls made (0 for the rules extractor). */
  llmCalls: number
}

/** Result of {@link Extractor.extractEpisodes}. */
export interface ExtractEpisodesResult {
  episodes: ExtractedEpisode[]
  usage: LLMUsage
  llmCalls: number
}

/** Result of {@link Extractor.extractProcedures}. */
export interface ExtractProceduresResult {
  procedures: ExtractedProcedure[]
  usage: LLMUsage
  llmCalls: number
}

/** Result of {@link Extractor.summarizeSession}; `summary` is null when nothing valid came out. */
export interface SummarizeSessionResult {
  summary: string | null
  usage: LLMUsage
  llmCalls: number
}

/** Input of {@link Extractor.extractFacts}. */
export interface ExtractFactsInput {
  text: string
  /** Up to 10 are used (the most recent first). */
  negativeExamples?: readonly NegativeExample[]
}

/** Input of {@link Extractor.extractEpisodes}: the salient chunks of one session, in order. */
export interface ExtractEpisodesInput {
  sessionId: string
  chunks: readonly { id: number; text: string }[]
}

/**
 * Turns conversation text into structured memory. The one interface dreaming uses; implementations are
 * {@link createRulesExtractor} (no model) and {@link createLLMExtractor}.
 */
export interface Extractor {
  /** 'rules' or 'llm:<model>'. */
  readonly name: string
  /** Dreaming processes each chunk once per prompt version. */
  readonly promptVersion: string
  extractFacts(input: ExtractFactsInput, opts?: ExtractOptions): Promise<ExtractFactsResult>
  extractEpisodes(input: ExtractEpisodesInput, opts?: ExtractOptions): Promise<ExtractEpisodesResult>
  extractProcedures(input: { text: string }, opts?: ExtractOptions): Promise<ExtractProceduresResult>
  summarizeSession(input: { transcript: string }, opts?: ExtractOptions): Promise<SummarizeSessionResult>
}
