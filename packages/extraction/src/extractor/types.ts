import type { LLMUsage } from '../llm/types'
import type { Attribution, KnownPeer, SpeakerTurn } from '../speakers/types'
import type { MarkerKind, Predicate } from '../vocabulary'

/**
 * A fact as extracted from one chunk. Subjects and objects are surface forms (dreaming canonicalises them);
 * for plain text the speaker is `user` (first person singular) or `team` (we / our team). With speaker
 * labels (`turns` / `peers` in {@link ExtractFactsInput}) a subject that is a peer is that peer's id, also
 * given in `subjectPeerId`, and `user` / `team` never appear for a chunk with turns.
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
  /** The subject is this peer (equal to `subject`): store it as is, it is an id, not a surface form. */
  subjectPeerId?: string
  /** The object is this peer (equal to `object`). */
  objectPeerId?: string
  /** How the subject was resolved to `subjectPeerId` (speaker-labelled input only). */
  attribution?: Attribution
}

/** An explicit behavioural signal (never mood or emotion inference). */
export interface ExtractedMarker {
  kind: MarkerKind
  statement: string
  /** Whose signal it is: the author of the turn it came from (speaker-labelled input only). */
  peerId?: string
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

/**
 * Input of {@link Extractor.extractFacts}. Plain `text` is read as one speaker (`user`). With `turns`, the
 * built-in extractors read the turns instead of `text` and resolve pronouns against their authors; `peers`
 * lets them resolve peers named in the text. See the package README, "Who speaks".
 */
export interface ExtractFactsInput {
  /** The chunk as stored; read only when `turns` is absent. */
  text: string
  /** The chunk's messages in order, each with its author's peer id and role. */
  turns?: readonly SpeakerTurn[]
  /** The peers the text may name (the workspace's peers with their names and aliases). */
  peers?: readonly KnownPeer[]
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
