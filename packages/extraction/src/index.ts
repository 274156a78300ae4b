/**
 * `@hymem/extraction`: LLM and embedding clients, versioned prompts, validated parsing and a rule-based
 * extractor. Layer 0: imports no other workspace package.
 *
 * @example
 * import { createRulesExtractor, createFakeEmbeddings } from '@hymem/extraction'
 * const extractor = createRulesExtractor()
 * const { triples } = await extractor.extractFacts({ text: 'We switched from MySQL to Postgres.' })
 * // [{ subject: 'Postgres', predicate: 'replaces', object: 'MySQL', polarity: 1 }, ...]
 * const turns = [{ peerId: 'alice', role: 'user', text: 'I use Rust.' }, { peerId: 'bob', role: 'user', text: 'I use Go.' }]
 * await extractor.extractFacts({ text: '', turns, peers: [{ id: 'bob', name: 'Bob' }] })
 * // (alice, uses, Rust) and (bob, uses, Go), each with subjectPeerId and attribution 'speaker'
 * @module
 */

export type { CachedEmbeddingClient, EmbeddingCacheStats } from './embedding/cached'
export { cachedEmbeddings } from './embedding/cached'
export type { FakeEmbeddingClient, FakeEmbeddingOptions } from './embedding/fake'
export { createFakeEmbeddings } from './embedding/fake'
export type { OpenAICompatibleEmbeddingOptions } from './embedding/openai-compatible'
export {
  createOpenAICompatibleEmbeddings,
  DEFAULT_EMBEDDING_BASE_URL,
  DEFAULT_EMBEDDING_MODEL,
} from './embedding/openai-compatible'
export type { EmbeddingClient } from './embedding/types'
export type { ExtractionErrorCode } from './errors'
export { ExtractionError } from './errors'
export type { LLMExtractorOptions } from './extractor/llm-extractor'
export { createLLMExtractor } from './extractor/llm-extractor'
export type { LLMReranker } from './extractor/reranker'
export { createLLMReranker } from './extractor/reranker'
export type { RulesExtractorOptions } from './extractor/rules-extractor'
export { createRulesExtractor, RULES_VERSION } from './extractor/rules-extractor'
export type {
  ExtractEpisodesInput,
  ExtractEpisodesResult,
  ExtractedEntityType,
  ExtractedEpisode,
  ExtractedMarker,
  ExtractedProcedure,
  ExtractedTriple,
  ExtractFactsInput,
  ExtractFactsResult,
  ExtractOptions,
  Extractor,
  ExtractProceduresResult,
  NegativeExample,
  SummarizeSessionResult,
} from './extractor/types'
export type { OpenAICompatibleConnectionOptions } from './llm/connection'
export type { FakeLLMClient, FakeLLMOptions } from './llm/fake'
export { createFakeLLM } from './llm/fake'
export type { OpenAICompatibleLLMOptions } from './llm/openai-compatible'
export { createOpenAICompatibleLLM, DEFAULT_LLM_BASE_URL, DEFAULT_LLM_MODEL } from './llm/openai-compatible'
export type { EnvHints } from './llm/provider-errors'
export type { LLMClient, LLMCompletion, LLMRequest, LLMUsage } from './llm/types'
export { addUsage, ZERO_USAGE } from './llm/types'
export type { ExtractionLogEvent, ExtractionLogger } from './log'
export type { AttributedFacts } from './parse/attribute'
export { attributeFacts } from './parse/attribute'
export { parseEpisodesAnswer } from './parse/episodes'
export type { ParsedFacts } from './parse/facts'
export { parseFactsAnswer } from './parse/facts'
export { extractJson } from './parse/json-text'
export { parseProceduresAnswer } from './parse/procedures'
export { parseRerankAnswer } from './parse/rerank'
export type { SummaryRejection } from './parse/summary'
export { parseSummaryAnswer, SUMMARY_LIMITS, validateSummary } from './parse/summary'
export { buildEpisodesPrompt } from './prompts/episodes'
export { buildFactsPrompt, MAX_NEGATIVE_EXAMPLES } from './prompts/facts'
export { buildProceduresPrompt } from './prompts/procedures'
export { buildRerankPrompt } from './prompts/rerank'
export { buildSummaryPrompt } from './prompts/summary'
export { PROMPT_VERSION } from './prompts/version'
export type { ChunkSpeakers } from './speakers/read-speakers'
export { readSpeakers, renderTurns } from './speakers/read-speakers'
export type { Attribution, KnownPeer, SpeakerTurn, TurnRole } from './speakers/types'
export type { MarkerKind, Predicate } from './vocabulary'
export { isMarkerKind, isPredicate, MARKER_KINDS, PREDICATES } from './vocabulary'
