import type { FullTextHit } from '@hymem/core-store'
import { type ContextScored, type MessageCandidate, scoreInContext } from '../rank/context-scoring'
import type { SearchContext } from './context'

/**
 * Rescores the keyword hits of messages with their context (see {@link scoreInContext}): the author when
 * the query names a peer, the adjacent turns, the session. Adjacent turns are only added when the search is
 * not limited to one author (`peerId`), since the turns next to a peer's message are usually someone else's.
 */
export async function messagesInContext(
  ctx: SearchContext,
  hits: readonly FullTextHit[],
  mentionedPeers: ReadonlySet<string>,
): Promise<ContextScored[]> {
  const { config } = ctx
  if (hits.length === 0) return []
  const ids = hits.map((hit) => Number(hit.id))
  const span = config.neighbourWeight > 0 && ctx.peerId === undefined ? config.neighbourSpan : 0
  const found = await ctx.store.messages.findNeighbours(ctx.workspaceId, ids, span)
  const byId = new Map(found.map((message) => [message.id, message]))
  const candidates: MessageCandidate[] = []
  for (const hit of hits) {
    const message = byId.get(Number(hit.id))
    if (!message) continue
    const neighbours: number[] = []
    for (let offset = 0; offset < span; offset++) {
      const before = message.before[offset]
      const after = message.after[offset]
      if (before !== undefined) neighbours.push(before)
      if (after !== undefined) neighbours.push(after)
    }
    candidates.push({
      id: message.id,
      score: hit.score,
      sessionId: message.sessionId,
      peerId: message.peerId,
      neighbours,
    })
  }
  return scoreInContext(candidates, {
    mentionedPeers,
    peerMentionBoost: config.peerMentionBoost,
    neighbourWeight: span > 0 ? config.neighbourWeight : 0,
    sessionWeight: config.sessionWeight,
  })
}
