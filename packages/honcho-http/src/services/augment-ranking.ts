import type { HonchoMemory } from '../types'

export type AugmentedContext = Awaited<ReturnType<HonchoMemory['augment']>>

export interface RankedMessage {
  readonly messageId: number
  /** The item kind that surfaced the message, then its reason codes. */
  readonly why: readonly string[]
}

/** Reason codes of a ranked reference, looked up in its list, led by the kind of item (e.g. `graph_fact`). */
export function reasonsOf(context: AugmentedContext, ref: AugmentedContext['ranked'][number]): string[] {
  switch (ref.kind) {
    case 'hit': {
      const hit = context.hits.find((h) => h.id === ref.id)
      return [hit?.kind ?? 'hit', ...(hit?.whyRetrieved ?? [])]
    }
    case 'graph': {
      const fact = context.graphFacts.find((f) => f.id === ref.id)
      return ['graph_fact', ...(fact?.whyRetrieved ?? [])]
    }
    case 'episode':
      return ['episode', ...(context.episodes.find((e) => e.id === ref.id)?.whyRetrieved ?? [])]
    case 'procedure':
      return ['procedure', ...(context.procedures.find((p) => p.id === ref.id)?.whyRetrieved ?? [])]
    default:
      return ['note', ...(context.notes.find((n) => n.id === ref.id)?.whyRetrieved ?? [])]
  }
}

/** Augment's ranked items expanded to their source messages, best first, each with its reason codes. */
export function rankedMessages(context: AugmentedContext): RankedMessage[] {
  const seen = new Set<number>()
  const out: RankedMessage[] = []
  for (const ref of context.ranked) {
    const why = reasonsOf(context, ref)
    for (const messageId of ref.messageIds) {
      if (seen.has(messageId)) continue
      seen.add(messageId)
      out.push({ messageId, why })
    }
  }
  return out
}

export async function augmentRanking(
  memory: HonchoMemory,
  query: string,
  options: { workspaceId: string; sessionIds?: readonly string[]; peerId?: string },
): Promise<RankedMessage[]> {
  const context = await memory.augment(query, {
    workspaceId: options.workspaceId,
    ...(options.sessionIds ? { sessionIds: options.sessionIds } : {}),
    ...(options.peerId ? { peerId: options.peerId } : {}),
  })
  return rankedMessages(context)
}
