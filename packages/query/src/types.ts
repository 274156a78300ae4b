import type { Store } from '@hymem/core-store'
import type { EmbeddingClient } from '@hymem/extraction'
import type { QueryConfig } from './config'
import type { RetrievalReason, SuppressionReason } from './reasons'

/** A message or chunk found by keyword and/or vector search. */
export interface AugmentHit {
  readonly kind: 'message' | 'chunk'
  /** `messages.id` or `chunks.id`. */
  readonly id: number
  readonly text: string
  readonly score: number
  readonly sessionId: string
  /** Author of a message; null for chunks (they may span several peers). */
  readonly peerId: string | null
  readonly createdAt: string
  /** The `messages.id` this hit came from (a message: itself). */
  readonly messageIds: number[]
  /** Why it was retrieved: keyword ranks, similarity, rerank score, context (author, neighbour, session). */
  readonly reasons: readonly RetrievalReason[]
  /** The reasons as codes: `keyword:messages#1`, `keyword:chunks#2`, `semantic_0.81`, `rerank_4.5`. */
  readonly whyRetrieved: string[]
}

/** A knowledge-graph edge with its score and the reason codes that produced the score. */
export interface GraphFact {
  readonly id: number
  readonly subject: string
  readonly predicate: string
  readonly object: string
  readonly confidence: number
  readonly posEvidence: number
  readonly negEvidence: number
  readonly derived: boolean
  readonly status: string
  /** When the fact became true in the conversation (its earliest supporting evidence). */
  readonly validFrom: string
  readonly validTo: string | null
  /** When HyMem learned it (the dream that wrote its first supporting evidence); null when unknown. */
  readonly learnedAt: string | null
  readonly score: number
  /** The factors of the score: ranker branch, similarity, routed predicate, entity ties, recency. */
  readonly reasons: readonly RetrievalReason[]
  /** The reasons as codes, e.g. `fallback:entity_anchored`, `semantic_0.84`, `predicate:uses`. */
  readonly whyRetrieved: string[]
  readonly messageIds: number[]
  /** The peer the fact is about (its subject is that peer); absent for facts about the shared world. */
  readonly aboutPeerId?: string
}

/** An episode (a named, summarised stretch of a session). */
export interface EpisodeHit {
  readonly id: string
  readonly sessionId: string
  readonly title: string
  readonly summary: string
  readonly outcome: string | null
  readonly score: number
  readonly reasons: readonly RetrievalReason[]
  /** The reasons as codes. */
  readonly whyRetrieved: string[]
  readonly messageIds: number[]
}

/** One step of a procedure. */
export interface ProcedureStep {
  readonly order: number
  readonly text: string
  readonly tool?: string
}

/** A step-by-step workflow. */
export interface ProcedureHit {
  readonly id: string
  readonly sessionId: string
  readonly name: string
  readonly description: string
  readonly steps: ProcedureStep[]
  readonly score: number
  readonly reasons: readonly RetrievalReason[]
  /** The reasons as codes. */
  readonly whyRetrieved: string[]
  readonly messageIds: number[]
}

/** An explicit memory (remember/forget) that passed the precision gates. */
export interface NoteHit {
  readonly id: string
  readonly description: string
  readonly content: string
  readonly importance: number
  /** Cosine similarity to the query; null when found by keyword only (or with no embedder). */
  readonly similarity: number | null
  readonly score: number
  readonly reasons: readonly RetrievalReason[]
  /** The reasons as codes. */
  readonly whyRetrieved: string[]
  readonly messageIds: number[]
}

/** A reference into one of the lists of {@link AugmentedContext}, in final reading order. */
export interface RankedRef {
  readonly kind: 'hit' | 'graph' | 'episode' | 'procedure' | 'note'
  readonly id: number | string
  readonly score: number
  readonly messageIds: number[]
}

/** An item augment considered and left out, and why: the answer to "why didn't it remember X?". */
export interface SuppressedItem {
  readonly kind: RankedRef['kind']
  readonly id: number | string
  /** What it is, in one line: a fact's triple, a note's description, the start of a turn. */
  readonly summary: string
  readonly reason: SuppressionReason
  /** The reason as a code, e.g. `superseded_by:12`, `below_similarity_floor_0.31`, `over_token_budget_85`. */
  readonly whySuppressed: string
  readonly messageIds: number[]
}

/**
 * What `augment()` returns: ranked, explained context, what was left out and why, and (when asked for with
 * `tokens`) one text block to paste into a prompt.
 */
export interface AugmentedContext {
  readonly query: string
  readonly workspaceId: string
  readonly userMd: string
  readonly memoryMd: string
  readonly hits: AugmentHit[]
  readonly graphFacts: GraphFact[]
  readonly episodes: EpisodeHit[]
  readonly procedures: ProcedureHit[]
  readonly notes: NoteHit[]
  /** Canonical entity names found in the message (before type and token-overlap expansion). */
  readonly matchedEntities: string[]
  /** Every item above in one final rank order — what to read first — as references. */
  readonly ranked: RankedRef[]
  /**
   * The profile, the insights and the ranked items as one text block within `options.tokens` tokens (OpenAI's
   * `o200k_base` encoding), in reading order; null when `tokens` was not given.
   */
  readonly context: string | null
  /** Tokens of `context` (0 when it is null). */
  readonly contextTokens: number
  /**
   * Items considered and left out: facts about the message's entities that are retracted, superseded or
   * stale; notes below the similarity floor or the relative cut-off; items that did not fit in `tokens`.
   */
  readonly suppressed: SuppressedItem[]
  /** Milliseconds per stage, plus `total`. */
  readonly timings: Record<string, number>
}

/** Per-source result counts; each defaults to the matching `*TopK` of the config. */
export interface AugmentLimits {
  readonly hits?: number
  readonly graph?: number
  readonly episodes?: number
  readonly procedures?: number
  readonly notes?: number
}

/** Options of `augment()`. */
export interface AugmentOptions {
  readonly workspaceId: string
  /** The observed peer: message hits are limited to what this peer wrote, chunks/episodes/procedures to its sessions, notes to those about it (or about nobody), graph facts to those about it or the shared world (never another peer's). */
  readonly peerId?: string
  /** Only search these sessions (messages, chunks, episodes, procedures). */
  readonly sessionIds?: readonly string[]
  readonly limits?: AugmentLimits
  /**
   * What HyMem would have returned at this time: graph edges valid then (`valid_from ≤ t < valid_to`) and
   * already learned, superseded ones included as they were; messages and chunks of that time; episodes,
   * procedures and notes written by then. Recency is measured from it too. USER.md and MEMORY.md stay current.
   */
  readonly asOf?: string | Date
  /** Without `asOf`, also return superseded edges (those with `valid_to` set). @default false */
  readonly includeSuperseded?: boolean
  /**
   * Also pack the profile, the insights and the ranked items into one text block (`context`) of at most this
   * many tokens (o200k_base); items that do not fit are reported in `suppressed`.
   */
  readonly tokens?: number
  /** USER.md content; when absent, read from the engine's `files.userMd` path (or empty). */
  readonly userMd?: string
  /** MEMORY.md content; when absent, read from the engine's `files.memoryMd` path (or empty). */
  readonly memoryMd?: string
  readonly signal?: AbortSignal
}

/** Scores candidates 1 (unrelated) to 5 (answers the query); `createLLMReranker` fits this shape. */
export interface Reranker {
  rerank(
    query: string,
    candidates: readonly { id: string; text: string }[],
    opts?: { signal?: AbortSignal },
  ): Promise<{ scores: Map<string, number> }>
}

/** Events reported through the `log` option (default: none). Built only when a logger is set. */
export type QueryLogEvent =
  | { kind: 'augment'; workspaceId: string; hits: number; graphFacts: number; ms: number }
  | { kind: 'embed-failed'; client: string; error: unknown }
  | { kind: 'vector-failed'; index: string; error: unknown }
  | { kind: 'rerank'; candidates: number; disagreement: number; ms: number }
  | { kind: 'rerank-failed'; error: unknown }
  | { kind: 'search-log-failed'; error: unknown }
  | { kind: 'profile-read-failed'; path: string; error: unknown }
  | { kind: 'token-index-built'; workspaceId: string; canonicals: number; ms: number }

/** Logger function option. */
export type QueryLogger = (event: QueryLogEvent) => void

/** Options of `createQueryEngine()`. */
export interface QueryEngineOptions {
  readonly store: Store
  /** Enables vector search (chunks, episodes, notes, edges). Wrap it in `cachedEmbeddings` for reuse. */
  readonly embeddings?: EmbeddingClient
  /** Enables ambiguity-gated reranking of the message/chunk hits. */
  readonly reranker?: Reranker
  readonly config?: Partial<QueryConfig>
  /** Where USER.md and MEMORY.md live, read on each augment that is not handed their contents. */
  readonly files?: { readonly userMd?: string; readonly memoryMd?: string }
  readonly log?: QueryLogger
}

/** A contradiction in the graph. */
export interface Conflict {
  /** `competing_object`: one subject, one exclusive predicate, several objects. `opposing_predicate`: one subject/object pair under contradicting predicates. */
  readonly kind: 'competing_object' | 'opposing_predicate'
  readonly subject: string
  /** The exclusive predicate, or the pair joined by `|` (e.g. `prefers|rejects`). */
  readonly predicate: string
  /** The shared object of an opposing pair; null for competing objects. */
  readonly object: string | null
  readonly edges: ConflictEdge[]
}

/** One edge taking part in a {@link Conflict}. */
export interface ConflictEdge {
  readonly id: number
  readonly subject: string
  readonly predicate: string
  readonly object: string
  readonly confidence: number
  readonly posEvidence: number
  readonly negEvidence: number
  readonly lastSeen: string
}

/** Options of `conflicts()`. */
export interface ConflictsOptions {
  readonly workspaceId: string
  /** Most conflicts returned, strongest first. @default 100 */
  readonly limit?: number
}

/** The query engine: one per store, holding per-workspace caches. */
export interface QueryEngine {
  /** Ranked, explained context for a message. Hostile text never throws; it yields fewer results. */
  augment(message: string, options: AugmentOptions): Promise<AugmentedContext>
  /** Contradicting edges (retracted, derived and superseded edges ignored), strongest first. */
  conflicts(options: ConflictsOptions): Promise<Conflict[]>
  /** Drops the cached token-overlap index and graph seeds (one workspace, or all); call after dreaming, merging or retracting. */
  invalidateQueryCaches(workspaceId?: string): void
  /** The frozen, resolved configuration. */
  readonly config: QueryConfig
}
