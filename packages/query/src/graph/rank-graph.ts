import type { Edge, EdgeValidity, Store } from '@hymem/core-store'
import type { QueryCaches } from '../caches'
import type { QueryConfig } from '../config'
import { explained } from '../reasons'
import type { GraphFact } from '../types'
import type { Anchors, GraphCandidate } from './edge'
import type { TypeExpansion } from './entities'
import type { RoutedPredicate } from './predicate-routing'
import { GRAPH_SEMANTIC_FLOOR, type GraphBranch, scoreCandidates, sortScored } from './score'
import type { OverlapExpansion } from './token-index'

/** Everything the hybrid graph ranker needs for one query. */
export interface GraphQuery {
  readonly workspaceId: string
  /** Canonicals named in the message. */
  readonly matched: readonly string[]
  readonly typeExpansions: ReadonlyMap<string, TypeExpansion>
  readonly overlapExpansions: ReadonlyMap<string, OverlapExpansion>
  readonly routed: readonly RoutedPredicate[]
  /** KNN over edge vectors; absent without an embedder. Errors are the caller's to report. */
  readonly nearestEdges?: (k: number) => Promise<{ id: number; similarity: number }[]>
  readonly validity: EdgeValidity
  readonly now: Date
  readonly limit: number
}

/** The ranked facts plus the branch that fired (for timings and tests). */
export interface GraphResult {
  readonly facts: GraphFact[]
  readonly branch: GraphBranch
  /** Edges the semantic fallback found but dropped below GRAPH_SEMANTIC_FLOOR, with their similarity. */
  readonly weak: readonly { readonly edge: Edge; readonly similarity: number }[]
}

/**
 * The hybrid graph ranker. With a routed predicate, entity-anchored, semantic and predicate-routed candidates
 * merge and score as `confidence × recency × semantic × boosts` (an edge a full KNN did not return counts at the
 * KNN's lowest similarity, so being a semantic neighbour is never a penalty). Otherwise the first source that yields
 * candidates decides the branch: entity-anchored (edge KNN skipped, so noisy edge vectors cannot crowd out a
 * deterministic entity hit), then semantic, then the most recent edges.
 */
export async function rankGraph(
  store: Store,
  query: GraphQuery,
  config: QueryConfig,
  seeds: Pick<QueryCaches, 'recentEdges' | 'topEdgesWithPredicates'>,
): Promise<GraphResult> {
  const anchorsOf = anchorLookup(query)
  const anchorNames = [
    ...new Set([...query.matched, ...query.typeExpansions.keys(), ...query.overlapExpansions.keys()]),
  ]
  const predicates = query.routed.map((route) => route.predicate)
  const candidates = new Map<number, GraphCandidate>()
  const add = (edges: readonly Edge[], patch: { semantic?: Map<number, number>; routed?: boolean }) => {
    for (const edge of edges) {
      let candidate = candidates.get(edge.id)
      if (!candidate) {
        candidate = { edge, semantic: 0, anchors: anchorsOf(edge), routed: false }
        candidates.set(edge.id, candidate)
      }
      candidate.semantic = Math.max(candidate.semantic, patch.semantic?.get(edge.id) ?? 0)
      if (patch.routed) candidate.routed = true
    }
  }
  // When the edge KNN came back full, an edge it did not return is at most as similar as its last hit.
  let semanticCeiling = 0
  const semantic = async (): Promise<number> => {
    if (!query.nearestEdges) return 0
    const hits = await query.nearestEdges(config.graphSemanticTopK)
    if (hits.length >= config.graphSemanticTopK && hits.length > 0)
      semanticCeiling = Math.max(0, Math.min(...hits.map((hit) => hit.similarity)))
    const edges = await store.edges.findCurrentByIds(
      query.workspaceId,
      hits.map((hit) => hit.id),
      query.validity,
    )
    const similarity = new Map(hits.map((hit) => [hit.id, Math.max(0, hit.similarity)]))
    add(edges, { semantic: similarity })
    return edges.length
  }

  const anchored = await store.edges.findBestTouching(query.workspaceId, anchorNames, {
    perEntity: config.graphTopKPerEntity,
    validity: query.validity,
  })
  add(anchored, {})
  let branch: GraphBranch
  let weak: { edge: Edge; similarity: number }[] = []
  if (predicates.length > 0) {
    branch = 'routed'
    await semantic()
    // Edges touching the message's entities first, then the strongest under the routed predicates.
    const limit = config.graphPredicateTopK
    const near = await store.edges.findTouchingWithPredicates(query.workspaceId, anchorNames, predicates, {
      limit,
      validity: query.validity,
    })
    const top =
      near.length >= limit
        ? []
        : await seeds.topEdgesWithPredicates(query.workspaceId, predicates, limit, query.validity)
    const nearIds = new Set(near.map((edge) => edge.id))
    add([...near, ...top.filter((edge) => !nearIds.has(edge.id))].slice(0, limit), { routed: true })
  } else if (anchored.length > 0) {
    branch = 'entity_anchored'
  } else {
    if ((await semantic()) > 0) weak = dropWeakSemantic(candidates)
    if (candidates.size > 0) {
      branch = 'semantic'
    } else {
      branch = 'recency'
      add(await seeds.recentEdges(query.workspaceId, config.graphRecencySeed, query.validity), {})
    }
  }

  const scored = sortScored(
    scoreCandidates(
      [...candidates.values()],
      branch,
      new Set(predicates),
      query.now,
      config,
      semanticCeiling,
    ),
  ).slice(0, query.limit)
  const provenance = await store.evidence.sourceMessageIds(
    query.workspaceId,
    scored.map((item) => item.candidate.edge.id),
  )
  const facts = scored.map(({ candidate: { edge }, score, reasons }) => ({
    id: edge.id,
    subject: edge.subject,
    predicate: edge.predicate,
    object: edge.object,
    confidence: edge.confidence,
    posEvidence: edge.posEvidence,
    negEvidence: edge.negEvidence,
    derived: edge.derived,
    status: edge.status,
    validFrom: edge.validFrom,
    validTo: edge.validTo,
    learnedAt: edge.learnedAt,
    score,
    ...explained(reasons),
    messageIds: provenance.get(edge.id) ?? [],
  }))
  return { facts, branch, weak }
}

function anchorLookup(query: GraphQuery): (edge: Edge) => Anchors {
  const direct = new Set(query.matched)
  return (edge) => {
    const anchors: Anchors = {}
    for (const end of [edge.subject, edge.object]) {
      if (anchors.direct === undefined && direct.has(end)) anchors.direct = end
      const typed = query.typeExpansions.get(end)
      if (!anchors.type && typed) anchors.type = { entity: end, entityType: typed.entityType }
      const overlap = query.overlapExpansions.get(end)
      if (!anchors.overlap && overlap) anchors.overlap = { entity: end, token: overlap.token }
    }
    return anchors
  }
}

/**
 * The semantic fallback only keeps edges at least GRAPH_SEMANTIC_FLOOR similar to the message: with no entity
 * and no route to go on, a weakly similar edge is noise, and the recency fallback says more honestly what it is.
 * Returns the dropped edges.
 */
function dropWeakSemantic(candidates: Map<number, GraphCandidate>): { edge: Edge; similarity: number }[] {
  const dropped: { edge: Edge; similarity: number }[] = []
  for (const [id, candidate] of candidates) {
    if (candidate.semantic >= GRAPH_SEMANTIC_FLOOR) continue
    candidates.delete(id)
    dropped.push({ edge: candidate.edge, similarity: candidate.semantic })
  }
  return dropped
}
