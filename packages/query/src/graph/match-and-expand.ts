import type { Store } from '@hymem/core-store'
import type { QueryConfig } from '../config'
import { expandByType, matchKnownEntities, type TypeExpansion } from './entities'
import { expandByTokenOverlap, type OverlapExpansion, type TokenOverlapIndex } from './token-index'

/** The message's entities and the two fuzzy-link layers around them. */
export interface EntityContext {
  readonly matched: string[]
  readonly typeExpansions: Map<string, TypeExpansion>
  readonly overlapExpansions: Map<string, OverlapExpansion>
}

/**
 * Matches known entities in the message, then expands by entity type and by rare shared name tokens (the
 * token index is only loaded when a multi-segment canonical matched).
 */
export async function matchAndExpand(
  store: Store,
  workspaceId: string,
  message: string,
  config: QueryConfig,
  tokenIndex: (workspaceId: string) => Promise<TokenOverlapIndex>,
): Promise<EntityContext> {
  const matched = await matchKnownEntities(store, workspaceId, message, {
    maxNgram: config.entityMaxNgram,
    maxWords: config.entityMaxWords,
  })
  const { expansions } = await expandByType(store, workspaceId, matched, config.typeExpansionMaxPerEntity)
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
