import type { FullTextHit } from '@hymem/core-store'
import { sql } from 'kysely'
import { type ContextScored, type MessageCandidate, scoreInContext } from '../rank/context-scoring'
import type { SearchContext } from './context'

/**
 * Rescores the keyword hits of messages with their context (see {@link scoreInContext}): the author when
 * the query names a peer, the adjacent turns, the session. Adjacent turns are only added when the search is
 * not limited to one author (`peerId`), since the turn next to a peer's message is usually someone else's.
 */
export async function messagesInContext(
  ctx: SearchContext,
  hits: readonly FullTextHit[],
  mentionedPeers: ReadonlySet<string>,
): Promise<ContextScored[]> {
  const { config } = ctx
  if (hits.length === 0) return []
  const ids = hits.map((hit) => Number(hit.id))
  const withNeighbours = config.neighbourWeight > 0 && ctx.peerId === undefined
  // `+workspace_id` keeps SQLite on the primary key; the neighbour look-ups walk messages_by_session.
  const { rows } = await sql<{
    id: number
    session_id: string
    peer_id: string
    previous: number | null
    next: number | null
  }>`
    SELECT m.id, m.session_id, m.peer_id,
      ${withNeighbours ? sql`(SELECT p.id FROM messages p WHERE p.workspace_id = m.workspace_id AND p.session_id = m.session_id AND p.id < m.id ORDER BY p.id DESC LIMIT 1)` : sql`NULL`} AS previous,
      ${withNeighbours ? sql`(SELECT n.id FROM messages n WHERE n.workspace_id = m.workspace_id AND n.session_id = m.session_id AND n.id > m.id ORDER BY n.id LIMIT 1)` : sql`NULL`} AS next
    FROM messages m
    WHERE m.id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND +m.workspace_id = ${ctx.workspaceId}`.execute(
    ctx.store.db,
  )
  const byId = new Map(rows.map((row) => [row.id, row]))
  const candidates: MessageCandidate[] = []
  for (const hit of hits) {
    const row = byId.get(Number(hit.id))
    if (!row) continue
    candidates.push({
      id: row.id,
      score: hit.score,
      sessionId: row.session_id,
      peerId: row.peer_id,
      previous: row.previous,
      next: row.next,
    })
  }
  return scoreInContext(candidates, {
    mentionedPeers,
    peerMentionBoost: config.peerMentionBoost,
    neighbourWeight: withNeighbours ? config.neighbourWeight : 0,
    sessionWeight: config.sessionWeight,
  })
}
