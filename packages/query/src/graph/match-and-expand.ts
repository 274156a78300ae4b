import type { Store } from '@hymem/core-store'
import type { QueryConfig } from '../config'
import { expandByType, matchKnownEntities, type TypeExpansion } from './entities'
import { expandByTokenOverlap, type OverlapExpansion, type TokenOverlapIndex } from './token-index'
import { expandByTypeName } from './type-names'

/** The message's entities and the two fuzzy-link layers around them. */
export interface EntityContext {
  readonly matched: string[]
  readonly typeExpansions: Map<string, TypeExpansion>
  readonly overlapExpansions: Map<string, OverlapExpansion>
}

/**
 * Matches known entities in the message, then expands by entity type (entities of a type the message names,
 * then same-type siblings of the matched entities) and by rare shared name tokens (the token index is only
 * loaded when a multi-segment canonical matched).
 */
export async function matchAndExpand(
  store: Store,
  workspaceId: string,
  message: string,
  config: QueryConfig,
  tokenIndex: (workspaceId: string) => Promise<TokenOverlapIndex>,
): Promise<EntityContext> {
  const limits = { maxNgram: config.entityMaxNgram, maxWords: config.entityMaxWords }
  const matched = await matchKnownEntities(store, workspaceId, message, limits)
  const named = await expandByTypeName(
    store,
    workspaceId,
    message,
    { ...limits, maxPerType: config.typeExpansionMaxPerEntity },
    matched,
  )
  const { expansions: siblings } = await expandByType(
    store,
    workspaceId,
    matched,
    config.typeExpansionMaxPerEntity,
  )
  const expansions = new Map(named)
  for (const [entity, expansion] of siblings) if (!expansions.has(entity)) expansions.set(entity, expansion)
  const overlap =
    matched.some((name) => name.includes('_')) && config.graphTokenOverlapMaxPerEntity > 0
      ? expandByTokenOverlap(
          await tokenIndex(workspaceId),
          matched,
          config.graphTokenOverlapThreshold,
          config.graphTokenOverlapMaxPerEntity,
        )
      : new Map<string, OverlapExpansion>()
  return { matched, typeExpansions: expansions, overlapExpansions: overlap }
}
