import type { QueryConfig } from '../config'
import { type GraphCandidate, isOverlapOnly } from './edge'

const DAY_MS = 86_400_000

/** Which branch of the ranker fired for the whole candidate set. */
export type GraphBranch = 'routed' | 'entity_anchored' | 'semantic' | 'recency'

/** A scored candidate; `whyRetrieved` lists the factors of `score`. */
export interface ScoredCandidate {
  readonly candidate: GraphCandidate
  readonly score: number
  readonly whyRetrieved: string[]
}

type Tunables = Pick<
  QueryConfig,
  'graphRecencyHalfLifeDays' | 'graphRecencyRecentDays' | 'graphPredicateBoost' | 'graphTokenOverlapWeight'
>

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
 * Routed: `confidence × recency × (semantic or 1) × predicate_boost? × overlap_weight?`. Fallback branches:
 * entity-anchored `confidence × recency` (× overlap weight when reached only by token overlap), semantic
 * `semantic × confidence × recency`, recency `confidence × recency`.
 */
export function scoreCandidates(
  candidates: readonly GraphCandidate[],
  branch: GraphBranch,
  routed: ReadonlySet<string>,
  now: Date,
  config: Tunables,
): ScoredCandidate[] {
  return candidates.map((candidate) => {
    const { edge, anchors, semantic } = candidate
    const days = daysSince(edge.lastSeen, now)
    const recency = recencyWeight(days, config.graphRecencyHalfLifeDays)
    const why: string[] = []
    let score = edge.confidence * recency
    const overlapOnly = isOverlapOnly(anchors)

    if (branch === 'routed') {
      if (semantic > 0) score *= semantic
      if (routed.has(edge.predicate)) score *= config.graphPredicateBoost
      if (overlapOnly) score *= config.graphTokenOverlapWeight
    } else if (branch === 'entity_anchored') {
      why.push(overlapOnly ? 'fallback:entity_anchored:overlap' : 'fallback:entity_anchored')
      if (overlapOnly) score *= config.graphTokenOverlapWeight
    } else if (branch === 'semantic') {
      why.push('fallback:semantic')
      score *= semantic
    } else {
      why.push('fallback:recency')
    }

    if (semantic > 0 && branch !== 'entity_anchored') why.push(`semantic_${semantic.toFixed(2)}`)
    if (branch === 'routed' && routed.has(edge.predicate)) why.push(`predicate:${edge.predicate}`)
    if (anchors.type) why.push(`entity_type:${anchors.type.entityType}`)
    if (days < config.graphRecencyRecentDays) why.push(`recency_${Math.floor(days)}d`)
    if (anchors.direct !== undefined) why.push('entity_match')
    if (overlapOnly && anchors.overlap) why.push(`overlap_via:${anchors.overlap.token}`)
    return { candidate, score, whyRetrieved: why }
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
