import type { QueryConfig } from '../config'
import type { RetrievalReason } from '../reasons'
import { type Anchors, type GraphCandidate, isOverlapOnly, isTypeOnly } from './edge'

const DAY_MS = 86_400_000

/** Which branch of the ranker fired for the whole candidate set. */
export type GraphBranch = 'routed' | 'entity_anchored' | 'semantic' | 'recency'

/** A scored candidate; `reasons` lists the factors of `score`. */
export interface ScoredCandidate {
  readonly candidate: GraphCandidate
  readonly score: number
  readonly reasons: RetrievalReason[]
}

/**
 * Routed path: an edge on an entity the message names (`entity_match`) weighs this many times an edge that
 * only the predicate route or the edge KNN found, so a fact about the named entity is never buried under
 * unrelated facts that merely share the routed predicate (1.5×).
 */
export const GRAPH_ENTITY_MATCH_BOOST = 3

/**
 * An edge anchored only through a type (`entity_type:<type>`: a same-type sibling of a matched entity, or an
 * entity of a type the message named) weighs this fraction of a direct match, in every branch. Chosen so a
 * type-only anchor still outranks a predicate-only match in the routed path (3 × 0.6 > 1.5) while a direct
 * match outranks a type-only one even when the latter also matches the routed predicate (3 > 3 × 0.6 × 1.5).
 */
export const GRAPH_TYPE_EXPANSION_WEIGHT = 0.6

/**
 * The least cosine similarity an edge needs to be returned by the semantic fallback (no entity matched, no
 * predicate routed). Unrelated short texts score about 0.0–0.2 under the embedders HyMem ships with.
 */
export const GRAPH_SEMANTIC_FLOOR = 0.2

type Tunables = Pick<
  QueryConfig,
  'graphRecencyHalfLifeDays' | 'graphRecencyRecentDays' | 'graphPredicateBoost' | 'graphTokenOverlapWeight'
> & {
  /** @default GRAPH_ENTITY_MATCH_BOOST */
  readonly graphEntityMatchBoost?: number
  /** @default GRAPH_TYPE_EXPANSION_WEIGHT */
  readonly graphTypeExpansionWeight?: number
}

/**
 * How much an edge's tie to the message's entities counts, relative to a direct match (1): type-only
 * anchors weigh the type-expansion weight, overlap-only anchors the token-overlap weight, unanchored edges 0.
 */
export function anchorWeight(anchors: Anchors, config: Tunables): number {
  if (anchors.direct !== undefined) return 1
  if (isTypeOnly(anchors)) return config.graphTypeExpansionWeight ?? GRAPH_TYPE_EXPANSION_WEIGHT
  if (isOverlapOnly(anchors)) return config.graphTokenOverlapWeight
  return 0
}

/** Days between `lastSeen` and `now` (never negative; unparsable times count as very old). */
export function daysSince(lastSeen: string, now: Date): number {
  const at = Date.parse(lastSeen)
  if (Number.isNaN(at)) return Number.POSITIVE_INFINITY
  return Math.max(0, (now.getTime() - at) / DAY_MS)
}

/** `exp(−days / half_life)`. */
export function recencyWeight(days: number, halfLifeDays: number): number {
  return Math.exp(-days / halfLifeDays)
}

/**
 * Scores candidates with the formula of the branch that fired; the reason codes are the formula's factors.
 * Routed: `confidence × recency × (semantic, else the KNN ceiling, else 1) × predicate_boost? × (entity_match_boost
 * × anchor weight)?`; `semanticCeiling` is the lowest similarity of a full edge KNN (0 when it was not full), which
 * bounds the similarity of every edge it did not return.
 * where the anchor weight is 1 for `entity_match`, the type-expansion weight for `entity_type:` only and the
 * token-overlap weight for `overlap_via:` only. Fallback branches: entity-anchored `confidence × recency ×
 * anchor weight`, semantic `semantic × confidence × recency`, recency `confidence × recency`.
 */
export function scoreCandidates(
  candidates: readonly GraphCandidate[],
  branch: GraphBranch,
  routed: ReadonlySet<string>,
  now: Date,
  config: Tunables,
  semanticCeiling = 0,
): ScoredCandidate[] {
  return candidates.map((candidate) => {
    const { edge, anchors, semantic } = candidate
    const days = daysSince(edge.lastSeen, now)
    const recency = recencyWeight(days, config.graphRecencyHalfLifeDays)
    const why: RetrievalReason[] = []
    let score = edge.confidence * recency
    const overlapOnly = isOverlapOnly(anchors)
    const anchor = anchorWeight(anchors, config)

    if (branch === 'routed') {
      if (semantic > 0) score *= semantic
      else if (semanticCeiling > 0) score *= semanticCeiling
      if (routed.has(edge.predicate)) score *= config.graphPredicateBoost
      if (anchor > 0) score *= (config.graphEntityMatchBoost ?? GRAPH_ENTITY_MATCH_BOOST) * anchor
    } else {
      why.push({ kind: 'fallback', branch, overlapOnly: branch === 'entity_anchored' && overlapOnly })
      if (branch === 'entity_anchored') score *= anchor
      else if (branch === 'semantic') score *= semantic
    }

    if (semantic > 0 && branch !== 'entity_anchored') why.push({ kind: 'semantic', similarity: semantic })
    else if (semanticCeiling > 0 && branch === 'routed')
      why.push({ kind: 'semantic_below', ceiling: semanticCeiling })
    if (branch === 'routed' && routed.has(edge.predicate))
      why.push({ kind: 'predicate', predicate: edge.predicate })
    if (anchors.type) why.push({ kind: 'entity_type', entityType: anchors.type.entityType })
    if (days < config.graphRecencyRecentDays) why.push({ kind: 'recency', days: Math.floor(days) })
    if (anchors.direct !== undefined) why.push({ kind: 'entity_match' })
    if (overlapOnly && anchors.overlap) why.push({ kind: 'overlap_via', token: anchors.overlap.token })
    return { candidate, score, reasons: why }
  })
}

/** Best first; ties by confidence, then by edge id so results are stable. */
export function sortScored(scored: ScoredCandidate[]): ScoredCandidate[] {
  return scored.sort(
    (a, b) =>
      b.score - a.score ||
      b.candidate.edge.confidence - a.candidate.edge.confidence ||
      a.candidate.edge.id - b.candidate.edge.id,
  )
}
