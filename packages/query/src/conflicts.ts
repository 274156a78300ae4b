import type { Store } from '@hymem/core-store'
import type { QueryConfig } from './config'
import { QueryError } from './errors'
import type { Conflict, ConflictsOptions } from './types'

const DEFAULT_LIMIT = 100

/**
 * Contradictions in the current graph: competing objects under an exclusive predicate (`atta prefers
 * english` vs `atta prefers dutch`) and opposing predicates on one subject/object pair (`team prefers docker`
 * vs `team rejects docker`). Retracted, derived and superseded edges are ignored. Strongest first (by the
 * weakest edge's confidence).
 */
export async function findConflicts(
  store: Store,
  config: QueryConfig,
  options: ConflictsOptions,
): Promise<Conflict[]> {
  if (typeof options.workspaceId !== 'string' || options.workspaceId === '')
    throw new QueryError('INVALID_INPUT', 'conflicts() needs a workspaceId')
  const limit = options.limit ?? DEFAULT_LIMIT
  if (!Number.isInteger(limit) || limit < 1)
    throw new QueryError('INVALID_INPUT', 'conflicts() limit must be a positive integer')
  const conflicts = await store.edges.findConflicts(options.workspaceId, {
    exclusivePredicates: config.exclusivePredicates,
    opposingPredicates: config.opposingPredicates,
    limit,
  })
  return conflicts.map((conflict) => ({
    kind: conflict.kind,
    subject: conflict.subject,
    predicate: conflict.predicate,
    object: conflict.object,
    edges: conflict.edges.map((edge) => ({
      id: edge.id,
      subject: edge.subject,
      predicate: edge.predicate,
      object: edge.object,
      confidence: edge.confidence,
      posEvidence: edge.posEvidence,
      negEvidence: edge.negEvidence,
      lastSeen: edge.lastSeen,
    })),
  }))
}
