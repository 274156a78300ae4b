import { type Kysely, sql } from 'kysely'
import type { StoreEngine } from '../engine/types'
import type { HyMemDatabase } from '../kernel/tables'
import type { MessageNeighbours } from './message-types'

/**
 * One index seek per neighbour (`messages_by_session`); `+m.workspace_id` keeps SQLite on the primary key.
 * Portable but for the id list and that hint (see `_inIdList`, `_notIndexed`).
 */
export async function selectNeighbours(
  engine: StoreEngine,
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  ids: readonly number[],
  span: number,
): Promise<MessageNeighbours[]> {
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
    WHERE ${engine.inIdList('m.id', ids)} AND ${engine.notIndexed('m.workspace_id')} = ${workspaceId}`.execute(
    db,
  )
  return rows.map((row) => {
    const before: number[] = []
    const after: number[] = []
    for (let offset = 0; offset < span; offset++) {
      const earlier = row[`b${offset}`]
      const later = row[`a${offset}`]
      if (earlier !== null && earlier !== undefined) before.push(Number(earlier))
      if (later !== null && later !== undefined) after.push(Number(later))
    }
    return {
      id: Number(row.id),
      sessionId: String(row.session_id),
      peerId: String(row.peer_id),
      before,
      after,
    }
  })
}
