import type { FullTextHit } from '@hymem/core-store'
import { sql } from 'kysely'
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
  // One index seek per neighbour (messages_by_session); `+workspace_id` keeps SQLite on the primary key.
  const nearby = (direction: 'before' | 'after', offset: number) =>
    direction === 'before'
      ? sql`(SELECT p.id FROM messages p WHERE p.workspace_id = m.workspace_id AND p.session_id = m.session_id AND p.id < m.id ORDER BY p.id DESC LIMIT 1 OFFSET ${offset})`
      : sql`(SELECT n.id FROM messages n WHERE n.workspace_id = m.workspace_id AND n.session_id = m.session_id AND n.id > m.id ORDER BY n.id LIMIT 1 OFFSET ${offset})`
  const columns = Array.from({ length: span }, (_, offset) => [
    sql`${nearby('before', offset)} AS ${sql.ref(`b${offset}`)}`,
    sql`${nearby('after', offset)} AS ${sql.ref(`a${offset}`)}`,
  ]).flat()
  const { rows } = await sql<Record<string, number | string | null>>`
    SELECT m.id, m.session_id, m.peer_id${columns.length > 0 ? sql`, ${sql.join(columns)}` : sql``}
    FROM messages m
    WHERE m.id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND +m.workspace_id = ${ctx.workspaceId}`.execute(
    ctx.store.db,
  )
  const byId = new Map(rows.map((row) => [Number(row.id), row]))
  const candidates: MessageCandidate[] = []
  for (const hit of hits) {
    const row = byId.get(Number(hit.id))
    if (!row) continue
    const neighbours: number[] = []
    for (let offset = 0; offset < span; offset++) {
      for (const key of [`b${offset}`, `a${offset}`]) {
        const id = row[key]
        if (id !== null && id !== undefined) neighbours.push(Number(id))
      }
    }
    candidates.push({
      id: Number(row.id),
      score: hit.score,
      sessionId: String(row.session_id),
      peerId: String(row.peer_id),
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
