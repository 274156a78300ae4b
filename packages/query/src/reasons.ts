/** A full-text index that found an item. */
export type KeywordSource = 'messages' | 'chunks' | 'episodes' | 'procedures' | 'notes'

/** The ranker branch that scored a graph fact when no predicate was routed. */
export type FallbackBranch = 'entity_anchored' | 'semantic' | 'recency'

/**
 * Why an item was retrieved: a source that found it or a factor of its score. `whyRetrieved` holds the same
 * reasons as short codes (see {@link reasonCode}).
 */
export type RetrievalReason =
  /** Full-text search found it at this rank (1 = best). Code `keyword:<source>#<rank>`. */
  | { readonly kind: 'keyword'; readonly source: KeywordSource; readonly rank: number }
  /** Cosine similarity of its vector to the message. Code `semantic_<similarity, 2 decimals>`. */
  | { readonly kind: 'semantic'; readonly similarity: number }
  /**
   * A full edge KNN did not return the fact, so its similarity is at most the KNN's lowest (`ceiling`).
   * Code `semantic_below_<ceiling, 2 decimals>`.
   */
  | { readonly kind: 'semantic_below'; readonly ceiling: number }
  /** The reranker's score, 1 (unrelated) to 5 (answers the query). Code `rerank_<score>`. */
  | { readonly kind: 'rerank'; readonly score: number }
  /** Written by a peer the message names. Code `author:<peerId>`. */
  | { readonly kind: 'author'; readonly peerId: string }
  /** An adjacent turn of a keyword-matched message. Code `neighbour_of:<messageId>`. */
  | { readonly kind: 'neighbour_of'; readonly messageId: number }
  /** The reply to a keyword-matched turn that asked a question. Code `reply_to:<messageId>`. */
  | { readonly kind: 'reply_to'; readonly messageId: number }
  /** Its session matched well as a whole. Code `session_context`. */
  | { readonly kind: 'session_context' }
  /** The message asks when (or how long), and the turn names a time. Code `time_mention`. */
  | { readonly kind: 'time_mention' }
  /** The turn states a standing rule or preference ("always …", "from now on …", "I prefer …"). Code `standing_rule`. */
  | { readonly kind: 'standing_rule' }
  /**
   * The message asks for help on a topic (`term`) that a standing rule the user gave an assistant names: the
   * rule is pinned first. Code `rule_for_topic:<term>`.
   */
  | { readonly kind: 'rule_for_topic'; readonly term: string }
  /**
   * The message asks whether the asker ever did something, and the turn says they never (or did not): the
   * other half of a contradiction. Code `denial`.
   */
  | { readonly kind: 'denial' }
  /**
   * The message asks over the whole conversation, and the turn is where one of its topics first came up in
   * its session (the topic index); `term` is the rarest such topic. Code `first_mention:<term>`.
   */
  | { readonly kind: 'first_mention'; readonly term: string }
  /**
   * The turn holds an identifier the message names (an error code, a version, a file, a symbol) that few
   * turns hold: it leads the turns that only resemble it. Code `exact_term:<term>`.
   */
  | { readonly kind: 'exact_term'; readonly term: string }
  /**
   * A long message scored by this passage of it, `[start, end)` in its text (see `store.passages`). Code
   * `passage:<start>..<end>`.
   */
  | { readonly kind: 'passage'; readonly passageId: number; readonly start: number; readonly end: number }
  /**
   * The message names a period (a month, a year) and the turn was written in it or shortly after (ISO dates,
   * `to` exclusive). Code `date_window:<from>..<to>`.
   */
  | { readonly kind: 'date_window'; readonly from: string; readonly to: string }
  /**
   * The graph ranker's fallback branch that scored it; `overlapOnly` when the fact was tied to the message's
   * entities only through a shared name token. Code `fallback:<branch>` (`fallback:entity_anchored:overlap`).
   */
  | { readonly kind: 'fallback'; readonly branch: FallbackBranch; readonly overlapOnly: boolean }
  /** The fact's predicate was routed from the message ("which database" → `uses`). Code `predicate:<predicate>`. */
  | { readonly kind: 'predicate'; readonly predicate: string }
  /** Tied to the message through an entity type. Code `entity_type:<type>`. */
  | { readonly kind: 'entity_type'; readonly entityType: string }
  /** Seen within the recent window, this many whole days ago. Code `recency_<days>d`. */
  | { readonly kind: 'recency'; readonly days: number }
  /** An entity the message names is the fact's subject or object. Code `entity_match`. */
  | { readonly kind: 'entity_match' }
  /** Tied to a named entity only through this shared rare name token. Code `overlap_via:<token>`. */
  | { readonly kind: 'overlap_via'; readonly token: string }

/** The short code of a reason, as listed in `whyRetrieved`. */
export function reasonCode(reason: RetrievalReason): string {
  switch (reason.kind) {
    case 'keyword':
      return `keyword:${reason.source}#${reason.rank}`
    case 'semantic':
      return `semantic_${reason.similarity.toFixed(2)}`
    case 'semantic_below':
      return `semantic_below_${reason.ceiling.toFixed(2)}`
    case 'rerank':
      return `rerank_${reason.score}`
    case 'author':
      return `author:${reason.peerId}`
    case 'neighbour_of':
      return `neighbour_of:${reason.messageId}`
    case 'reply_to':
      return `reply_to:${reason.messageId}`
    case 'session_context':
      return 'session_context'
    case 'time_mention':
      return 'time_mention'
    case 'standing_rule':
      return 'standing_rule'
    case 'rule_for_topic':
      return `rule_for_topic:${reason.term}`
    case 'denial':
      return 'denial'
    case 'first_mention':
      return `first_mention:${reason.term}`
    case 'exact_term':
      return `exact_term:${reason.term}`
    case 'passage':
      return `passage:${reason.start}..${reason.end}`
    case 'date_window':
      return `date_window:${reason.from}..${reason.to}`
    case 'fallback':
      return `fallback:${reason.branch}${reason.overlapOnly ? ':overlap' : ''}`
    case 'predicate':
      return `predicate:${reason.predicate}`
    case 'entity_type':
      return `entity_type:${reason.entityType}`
    case 'recency':
      return `recency_${reason.days}d`
    case 'entity_match':
      return 'entity_match'
    case 'overlap_via':
      return `overlap_via:${reason.token}`
  }
}

/** Reasons and their codes, as the public result types carry them. */
export function explained(reasons: readonly RetrievalReason[]): {
  reasons: RetrievalReason[]
  whyRetrieved: string[]
} {
  return { reasons: [...reasons], whyRetrieved: reasons.map(reasonCode) }
}

/**
 * Why augment considered an item and left it out (see `AugmentedContext.suppressed`). `whySuppressed` holds
 * the reason as a short code (see {@link suppressionCode}).
 */
export type SuppressionReason =
  /** Found by vector search only, and less similar than the floor. Code `below_similarity_floor_<similarity>`. */
  | { readonly kind: 'below_similarity_floor'; readonly similarity: number; readonly floor: number }
  /**
   * More than `cutoff` below the best similarity of its kind (`best`). Code
   * `below_relative_cutoff_<similarity>`.
   */
  | {
      readonly kind: 'below_relative_cutoff'
      readonly similarity: number
      readonly best: number
      readonly cutoff: number
    }
  /** A newer fact (`by`) replaced it at `at`. Code `superseded_by:<edge id>`. */
  | { readonly kind: 'superseded'; readonly by: number; readonly at: string }
  /** Retracted: judged wrong (by a person or by contradicting evidence). Code `retracted`. */
  | { readonly kind: 'retracted' }
  /** Its validity ended at `since` with no successor recorded. Code `stale_since:<date>`. */
  | { readonly kind: 'stale'; readonly since: string }
  /** Its line (`tokens`) did not fit in the context block's `budget`. Code `over_token_budget_<tokens>`. */
  | { readonly kind: 'over_token_budget'; readonly tokens: number; readonly budget: number }

/** The short code of a suppression reason. */
export function suppressionCode(reason: SuppressionReason): string {
  switch (reason.kind) {
    case 'below_similarity_floor':
      return `below_similarity_floor_${reason.similarity.toFixed(2)}`
    case 'below_relative_cutoff':
      return `below_relative_cutoff_${reason.similarity.toFixed(2)}`
    case 'superseded':
      return `superseded_by:${reason.by}`
    case 'retracted':
      return 'retracted'
    case 'stale':
      return `stale_since:${reason.since.slice(0, 10)}`
    case 'over_token_budget':
      return `over_token_budget_${reason.tokens}`
  }
}
