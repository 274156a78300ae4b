import { QueryError } from './errors'

/** How keyword and vector result lists are combined into one ranking. */
export type FusionMethod = 'rrf' | 'lexical-bonus'

/** Weights that order the different kinds of items in `AugmentedContext.ranked`. */
export interface RankWeights {
  readonly hit: number
  readonly graph: number
  readonly episode: number
  readonly procedure: number
  readonly note: number
}

/**
 * Every tunable of the query path. Defaults follow §9 of the walkthrough; the rest (notes gates, fusion
 * alternative, limits the walkthrough leaves open) are documented per field.
 */
export interface QueryConfig {
  /** Message/chunk hits returned. @default 20 (the walkthrough's `fts_top_k` is 5; see bench/RESULTS.md) */
  readonly ftsTopK: number
  /** Candidates pulled from each keyword/vector list before fusion and reranking. @default 20 (`rerank_top_k`) */
  readonly rerankTopK: number
  /**
   * Message keyword hits pulled before they are rescored in context (author, adjacent turns, session).
   * @default 100
   */
  readonly contextPoolK: number
  /**
   * Messages written by a peer the query names (its id, e.g. "alice" in "what did Alice adopt?") get their
   * keyword score multiplied by `1 + peerMentionBoost`, and the name leaves the keyword query (a turn rarely
   * names its own author), and the query is embedded as that peer would have said it ("When did Nate win?" as
   * "When did I win?": turns are embedded after their author's name, in the first person, and a name in the
   * query would pull that peer's shortest turns nearest). 0 disables all three. @default 1
   */
  readonly peerMentionBoost: number
  /** Share of a message's keyword score added to each nearby turn of its session (0 disables). @default 0.3 */
  readonly neighbourWeight: number
  /** Nearby turns: this many before and this many after a matching message, in its session. @default 2 */
  readonly neighbourSpan: number
  /** Share of a session's best message score added to each of its candidate messages (0 disables). @default 0.3 */
  readonly sessionWeight: number
  /**
   * For a question over the whole conversation ("across", "throughout", "how many times", "in which order",
   * a summary), the message list can be spread across sessions: each next turn of a session already in the
   * list counts × this per turn placed. Off (1) by default: on BEAM dev 0.7 cost 0.010 R@10 (on LoCoMo it
   * gave cat 1 +0.004), and a `sessionWeight` of 0 for such questions cost 0.009 (bench/RESULTS.md). @default 1
   */
  readonly overTimeSessionDecay: number
  /**
   * `overTimeSessionDecay` for a question asking in which order things came up ("list the order in which I
   * brought up …"): its answer is one turn or two from each session, so the list spreads across them. @default 0.5
   */
  readonly orderSessionDecay: number
  /**
   * `assistantTurnWeight` for a question asking for a summary ("summarise how we approached …"): what was
   * discussed is in the assistant's answers as much as in the user's turns. @default 1
   */
  readonly summaryAssistantTurnWeight: number
  /**
   * For a question over the whole conversation, weight of the topic index: a turn where one of the question's
   * topics first came up in its session joins the candidates, with up to this much added to its keyword score
   * (the rarer and the more of the question's topics it introduced, the more). 0 turns it off.
   */
  readonly firstMentionWeight: number
  /**
   * `assistantTurnWeight` for a question about what the asker said ("in which order did I bring up …", "what
   * did I mention about …"): the asker's own turns hold the answer, not the assistant's restatements.
   */
  readonly ownWordsAssistantTurnWeight: number
  /**
   * `assistantTurnWeight` for a question about what the assistant said or did ("what did you recommend …",
   * "how did you help me …", "your advice"): the assistant's answers hold it, beside the user's turns that
   * asked for them.
   */
  readonly assistantWordsTurnWeight: number
  /**
   * For a question whether the asker ever did something ("Have I ever …", "Did I … before?"), a turn saying
   * they never did ("I've never …", "I haven't …") scores × (1 + this): with the turns saying they did, it is
   * the other half of a contradiction. 0 turns it off.
   */
  readonly denialBoost: number
  /**
   * Messages nearest to the query by vector (the message index dreaming fills) that join the keyword hits as
   * candidates; 0 keeps to the keyword hits (their similarity still counts). @default 30
   */
  readonly denseTurnTopK: number
  /**
   * Weight of a message's similarity to the query beside its keyword score (the best keyword hit scores 1):
   * `denseTurnWeight × max(0, (similarity − denseTurnFloor) / (1 − denseTurnFloor))`. 0 disables message
   * vectors. 2 since the query is embedded in the first person of the peers it names (1 before; on LoCoMo dev
   * R@10 0.817 → 0.822, BEAM-500K dev 0.600 → 0.609: bench/RESULTS.md). @default 2
   */
  readonly denseTurnWeight: number
  /** Similarity below which a message's meaning adds nothing (on the embedder's cosine scale). @default 0.2 */
  readonly denseTurnFloor: number
  /** For a question about time, turns naming a time ("last week", "in May") score × (1 + this). @default 1 */
  readonly timeQuestionBoost: number
  /** Turns written in the period the query names ("in July 2022") score × (1 + this). @default 1 */
  readonly dateWindowBoost: number
  /** The named period is widened by this many days after its end (turns tell of events after them). @default 14 */
  readonly dateWindowSlackDays: number
  /**
   * A user's turn to an assistant stating a standing rule or preference ("Always …", "Never …", "from now
   * on", "I prefer") scores × (1 + this): it governs later requests on its topic that share few of its words. @default 1
   */
  readonly standingRuleBoost: number
  /**
   * `standingRuleBoost` for a question about the past ("what did I say about …", "how many times …", a summary):
   * a rule governs requests, and among the turns that tell what happened it is one more turn. On BEAM-500K dev
   * R@10 0.609 → 0.611, information extraction 0.663 → 0.679 (bench/RESULTS.md). @default 0
   */
  readonly recallStandingRuleBoost: number
  /**
   * How many standing rules the user gave an assistant ("Always …", "I prefer …", kept by dreaming) lead the
   * message hits of a request for help that shares a topic with them; 0 turns it off. @default 3
   */
  readonly standingRulesTopK: number
  /** Turns that ask a question (end with "?") score × this: they ask, their reply tells. @default 0.7 */
  readonly questionTurnWeight: number
  /** Share of a matching question turn's score added to its reply (instead of `neighbourWeight`). @default 0.8 */
  readonly replyWeight: number
  /**
   * `questionTurnWeight` for a user's turn answered by an assistant (and the assistant's reply to it): a
   * request to an assistant states the user's own facts while it asks, so it is not discounted. The two
   * levers above serve exchanges between people and between agents. @default 1
   */
  readonly assistantQuestionTurnWeight: number
  /** `replyWeight` for an assistant's reply to a user's question. @default 0.3 */
  readonly assistantReplyWeight: number
  /**
   * `neighbourWeight` for the turns of a user ↔ assistant exchange: in a long technical chat nearly every turn
   * shares the query's words, and the share each hands to the turns around it outweighs the turn that matches.
   */
  readonly assistantNeighbourWeight: number
  /**
   * An assistant's turn in a user ↔ assistant exchange scores × this: its long answers restate what the user
   * said, and match nearly every query on their topic. @default 0.3
   */
  readonly assistantTurnWeight: number
  /**
   * When the query names peers, turns written by anyone else score × this (evidence about a peer is nearly
   * always in their own words; lower costs the questions that name the wrong person). @default 0.8
   */
  readonly otherAuthorWeight: number
  /**
   * Search chunks by keyword too (chunks found by vector search are always fused). Off by default: a chunk
   * spans several turns, and ranked single turns in context retrieve better (bench/RESULTS.md). @default false
   */
  readonly keywordChunks: boolean
  /**
   * Long messages are also searched by their passages (keyword and vector, see dreaming's `passageMinChars`);
   * a message's keyword score becomes its best passage's × this weight where that is higher, and its
   * similarity its most similar passage's. 0 searches whole messages only. Off by default: on BEAM dev, long
   * assistant answers then crowd out the short user turns that hold most of the evidence (R@10, chats 11–12, with the
   * default embedder 0.581 → 0.566 at 0.3; without embeddings 0.494 → 0.500 at 0.3, 0.475 at 1), and the two
   * extra searches cost ~15 ms p50 (bench/RESULTS.md). @default 0
   */
  readonly passageWeight: number
  /**
   * Weight of the vector-searched chunk list in the fusion (0: no vector search of chunks). Below 1, chunks
   * found only by meaning follow the keyword turns instead of interleaving with them (with the offline
   * USE-lite embedder they never helped recall on LoCoMo, and at 1 they cost 0.07: bench/RESULTS.md).
   * @default 0.5
   */
  readonly vectorChunkWeight: number
  /** Fusion of the hit lists. @default 'rrf' */
  readonly fusion: FusionMethod
  /** RRF constant: `score = Σ 1 / (rrfK + rank)`. @default 60 */
  readonly rrfK: number
  /** `lexical-bonus` fusion: bonus of the #1 keyword hit on top of cosine similarity. @default 0.1 */
  readonly lexicalBoost: number
  /** `lexical-bonus` fusion: the bonus at keyword rank r is `lexicalBoost × k / (k + r − 1)`. @default 10 */
  readonly lexicalRankDecayK: number
  /**
   * Rerank only when keyword and vector search disagree on their #1 at least this much (0–1: 0 = same #1,
   * 1 = neither #1 is in the other list). Above 1 disables reranking. @default 0.6
   */
  readonly rerankAmbiguityThreshold: number
  /** Weight of the reranker's 1–5 score against the normalised fused score. @default 0.5 */
  readonly rerankWeight: number
  /** Episodes returned. @default 3 */
  readonly episodesTopK: number
  /** Procedures returned. @default 3 */
  readonly proceduresTopK: number
  /** Notes returned. @default 5 */
  readonly notesTopK: number
  /** Absolute cosine floor for notes found only by vector search (0 disables). @default 0.4 */
  readonly notesMinSimilarity: number
  /** Drop notes more than this far below the best note's similarity (0 disables). @default 0.15 */
  readonly notesRelativeCutoff: number
  /** Words in the longest n-gram tried as an entity name. @default 3 */
  readonly entityMaxNgram: number
  /** Only the first this-many words of a message are scanned for entities. @default 64 */
  readonly entityMaxWords: number
  /** Same-type entities added per matched entity. @default 5 */
  readonly typeExpansionMaxPerEntity: number
  /** Entity-anchored graph facts per matched entity. @default 3 */
  readonly graphTopKPerEntity: number
  /** KNN candidates pulled from the edge vectors. @default 10 */
  readonly graphSemanticTopK: number
  /** Edges pulled for a predicate-routed query. @default 10 */
  readonly graphPredicateTopK: number
  /** Graph facts returned. @default 8 */
  readonly graphTopK: number
  /** Recent edges seeding the `fallback:recency` branch. @default 50 */
  readonly graphRecencySeed: number
  /** `recency_weight = exp(−days / half_life)`. @default 30 */
  readonly graphRecencyHalfLifeDays: number
  /** Edges seen fewer days ago than this carry a `recency_Nd` code. @default 7 */
  readonly graphRecencyRecentDays: number
  /** Score multiplier of edges whose predicate the query routed to. @default 1.5 */
  readonly graphPredicateBoost: number
  /** Score multiplier of edges reached only through token overlap. @default 0.5 */
  readonly graphTokenOverlapWeight: number
  /** A name segment shared by more than this many canonicals is noise, not a link. @default 20 */
  readonly graphTokenOverlapThreshold: number
  /** Token-overlap expansions per matched canonical. @default 5 */
  readonly graphTokenOverlapMaxPerEntity: number
  /** Mutually exclusive predicates: one subject with two objects under one of them is a conflict. */
  readonly exclusivePredicates: readonly string[]
  /** Predicate pairs that contradict each other on the same subject and object. */
  readonly opposingPredicates: readonly (readonly [string, string])[]
  /**
   * Order of the kinds in `ranked`: an item's weight × its score relative to the best of its kind. The best
   * item of a kind always scores its full weight however weak the kind's matches are, so derived kinds
   * (graph, episodes, procedures) weigh less than the hits they summarise.
   * @default { hit: 1, graph: 0.6, episode: 0.6, procedure: 0.6, note: 0.95 }
   */
  readonly rankWeights: RankWeights
  /**
   * Most items `suppressed` reports per source (notes a precision gate dropped, hidden facts about the
   * message's entities); items left out of the context block are all reported. 0 reports only those.
   * @default 10
   */
  readonly suppressedLimit: number
  /** Characters of the message handed to the embedder and the reranker (a 100 KB paste is cut). @default 2000 */
  readonly maxQueryChars: number
  /** Write one `search_log` row per augment. @default true */
  readonly searchLog: boolean
}

/** The defaults (§9 of the walkthrough, plus the precision gates of the hypermnesia seed). */
export const DEFAULT_QUERY_CONFIG: QueryConfig = deepFreeze({
  ftsTopK: 20,
  rerankTopK: 20,
  contextPoolK: 100,
  peerMentionBoost: 1,
  neighbourWeight: 0.3,
  neighbourSpan: 2,
  sessionWeight: 0.3,
  overTimeSessionDecay: 1,
  orderSessionDecay: 0.5,
  summaryAssistantTurnWeight: 1,
  firstMentionWeight: 1,
  ownWordsAssistantTurnWeight: 0.3,
  assistantWordsTurnWeight: 1,
  denialBoost: 1,
  denseTurnTopK: 30,
  denseTurnWeight: 2,
  denseTurnFloor: 0.2,
  timeQuestionBoost: 1,
  dateWindowBoost: 1,
  dateWindowSlackDays: 14,
  standingRuleBoost: 1,
  recallStandingRuleBoost: 0,
  standingRulesTopK: 3,
  questionTurnWeight: 0.7,
  replyWeight: 0.8,
  assistantQuestionTurnWeight: 1,
  assistantReplyWeight: 0.3,
  assistantNeighbourWeight: 0.1,
  assistantTurnWeight: 0.3,
  otherAuthorWeight: 0.8,
  keywordChunks: false,
  passageWeight: 0,
  vectorChunkWeight: 0.5,
  fusion: 'rrf',
  rrfK: 60,
  lexicalBoost: 0.1,
  lexicalRankDecayK: 10,
  rerankAmbiguityThreshold: 0.6,
  rerankWeight: 0.5,
  episodesTopK: 3,
  proceduresTopK: 3,
  notesTopK: 5,
  notesMinSimilarity: 0.4,
  notesRelativeCutoff: 0.15,
  entityMaxNgram: 3,
  entityMaxWords: 64,
  typeExpansionMaxPerEntity: 5,
  graphTopKPerEntity: 3,
  graphSemanticTopK: 10,
  graphPredicateTopK: 10,
  graphTopK: 8,
  graphRecencySeed: 50,
  graphRecencyHalfLifeDays: 30,
  graphRecencyRecentDays: 7,
  graphPredicateBoost: 1.5,
  graphTokenOverlapWeight: 0.5,
  graphTokenOverlapThreshold: 20,
  graphTokenOverlapMaxPerEntity: 5,
  exclusivePredicates: ['prefers', 'requires_version'],
  opposingPredicates: [
    ['prefers', 'rejects'],
    ['prefers', 'avoids'],
    ['uses', 'rejects'],
    ['uses', 'avoids'],
    ['depends_on', 'rejects'],
    ['depends_on', 'avoids'],
  ],
  rankWeights: { hit: 1, graph: 0.6, episode: 0.6, procedure: 0.6, note: 0.95 },
  suppressedLimit: 10,
  maxQueryChars: 2000,
  searchLog: true,
})

const POSITIVE_INTEGERS = [
  'ftsTopK',
  'rerankTopK',
  'contextPoolK',
  'neighbourSpan',
  'episodesTopK',
  'proceduresTopK',
  'notesTopK',
  'entityMaxNgram',
  'entityMaxWords',
  'graphTopKPerEntity',
  'graphSemanticTopK',
  'graphPredicateTopK',
  'graphTopK',
  'graphRecencySeed',
  'graphTokenOverlapThreshold',
  'maxQueryChars',
] as const satisfies readonly (keyof QueryConfig)[]

const NON_NEGATIVE_NUMBERS = [
  'rrfK',
  'peerMentionBoost',
  'vectorChunkWeight',
  'neighbourWeight',
  'sessionWeight',
  'overTimeSessionDecay',
  'orderSessionDecay',
  'summaryAssistantTurnWeight',
  'firstMentionWeight',
  'ownWordsAssistantTurnWeight',
  'assistantWordsTurnWeight',
  'denialBoost',
  'denseTurnTopK',
  'denseTurnWeight',
  'timeQuestionBoost',
  'dateWindowBoost',
  'dateWindowSlackDays',
  'standingRuleBoost',
  'recallStandingRuleBoost',
  'standingRulesTopK',
  'questionTurnWeight',
  'replyWeight',
  'assistantQuestionTurnWeight',
  'assistantReplyWeight',
  'assistantNeighbourWeight',
  'assistantTurnWeight',
  'otherAuthorWeight',
  'passageWeight',
  'suppressedLimit',
  'lexicalBoost',
  'rerankAmbiguityThreshold',
  'rerankWeight',
  'notesMinSimilarity',
  'notesRelativeCutoff',
  'typeExpansionMaxPerEntity',
  'graphRecencyRecentDays',
  'graphPredicateBoost',
  'graphTokenOverlapWeight',
  'graphTokenOverlapMaxPerEntity',
] as const satisfies readonly (keyof QueryConfig)[]

/**
 * Merges overrides onto {@link DEFAULT_QUERY_CONFIG}, validates and freezes the result.
 * Throws `QueryError('INVALID_CONFIG')` naming the first bad key.
 */
export function resolveQueryConfig(overrides: Partial<QueryConfig> = {}): QueryConfig {
  const merged: QueryConfig = {
    ...DEFAULT_QUERY_CONFIG,
    ...overrides,
    rankWeights: { ...DEFAULT_QUERY_CONFIG.rankWeights, ...overrides.rankWeights },
  }
  for (const key of POSITIVE_INTEGERS) {
    const value = merged[key]
    if (!Number.isInteger(value) || value < 1) invalid(key, value, 'a positive integer')
  }
  for (const key of NON_NEGATIVE_NUMBERS) {
    const value = merged[key]
    if (!Number.isFinite(value) || value < 0) invalid(key, value, 'a finite number >= 0')
  }
  if (!(merged.graphRecencyHalfLifeDays > 0) || !Number.isFinite(merged.graphRecencyHalfLifeDays))
    invalid('graphRecencyHalfLifeDays', merged.graphRecencyHalfLifeDays, 'a finite number > 0')
  if (!(merged.lexicalRankDecayK > 0) || !Number.isFinite(merged.lexicalRankDecayK))
    invalid('lexicalRankDecayK', merged.lexicalRankDecayK, 'a finite number > 0')
  for (const key of ['denseTurnTopK', 'suppressedLimit'] as const)
    if (!Number.isInteger(merged[key])) invalid(key, merged[key], 'an integer >= 0')
  if (!(merged.denseTurnFloor >= 0 && merged.denseTurnFloor < 1))
    invalid('denseTurnFloor', merged.denseTurnFloor, 'a number in [0, 1)')
  if (typeof merged.keywordChunks !== 'boolean') invalid('keywordChunks', merged.keywordChunks, 'a boolean')
  if (merged.fusion !== 'rrf' && merged.fusion !== 'lexical-bonus')
    invalid('fusion', merged.fusion, "'rrf' or 'lexical-bonus'")
  for (const [kind, weight] of Object.entries(merged.rankWeights)) {
    if (!Number.isFinite(weight) || weight < 0) invalid(`rankWeights.${kind}`, weight, 'a finite number >= 0')
  }
  return deepFreeze(merged)
}

function invalid(key: string, value: unknown, expected: string): never {
  throw new QueryError('INVALID_CONFIG', `query config ${key} must be ${expected}, got ${String(value)}`)
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}
