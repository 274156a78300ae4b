import type { PurgeTx } from './tally'
import { sharesId, slices } from './tally'

/** A chunk the purge removes, with what later steps need to know about it. */
export interface DoomedChunk {
  readonly id: number
  readonly sessionId: string
  readonly createdAt: string
}

/** The workspace's chunks built from any of `messageIds` (a chunk mixing kept and forgotten messages too). */
export async function chunksOfMessages(
  tx: PurgeTx,
  workspaceId: string,
  messageIds: ReadonlySet<number>,
): Promise<DoomedChunk[]> {
  if (messageIds.size === 0) return []
  let min = Number.POSITIVE_INFINITY
  let max = Number.NEGATIVE_INFINITY
  for (const id of messageIds) {
    if (id < min) min = id
    if (id > max) max = id
  }
  const rows = await tx.db
    .selectFrom('chunks')
    .select(['id', 'session_id', 'message_ids', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('last_message_id', '>=', min)
    .where('first_message_id', '<=', max)
    .execute()
  return rows
    .filter((row) => sharesId(row.message_ids, messageIds))
    .map((row) => ({ id: row.id, sessionId: row.session_id, createdAt: row.created_at }))
}

/** Every chunk of one session. */
export async function chunksOfSession(
  tx: PurgeTx,
  workspaceId: string,
  sessionId: string,
): Promise<DoomedChunk[]> {
  const rows = await tx.db
    .selectFrom('chunks')
    .select(['id', 'session_id', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('session_id', '=', sessionId)
    .execute()
  return rows.map((row) => ({ id: row.id, sessionId: row.session_id, createdAt: row.created_at }))
}

/** The texts of chunks (for the words they held and the feedback rows that quote them). */
export async function chunkTexts(
  tx: PurgeTx,
  workspaceId: string,
  ids: readonly number[],
): Promise<string[]> {
  const texts: string[] = []
  for (const part of slices(ids)) {
    const rows = await tx.db
      .selectFrom('chunks')
      .select('text')
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', part)
      .execute()
    for (const row of rows) texts.push(row.text)
  }
  return texts
}

/** Evidence rows resting on the chunks or citing any of the messages: `(id, edge id)`. */
export async function evidenceOf(
  tx: PurgeTx,
  workspaceId: string,
  chunkIds: readonly number[],
  messageIds: ReadonlySet<number>,
): Promise<{ id: number; edgeId: number }[]> {
  const found = new Map<number, number>()
  for (const part of slices(chunkIds)) {
    const rows = await tx.db
      .selectFrom('kg_evidence')
      .select(['id', 'edge_id'])
      .where('workspace_id', '=', workspaceId)
      .where('chunk_id', 'in', part)
      .execute()
    for (const row of rows) found.set(row.id, row.edge_id)
  }
  if (messageIds.size > 0) {
    // Evidence without a chunk (inferred facts, chunks evicted by retention) still names its messages.
    const loose = await tx.db
      .selectFrom('kg_evidence')
      .select(['id', 'edge_id', 'message_ids'])
      .where('chunk_id', 'is', null)
      .where('workspace_id', '=', workspaceId)
      .execute()
    for (const row of loose) if (sharesId(row.message_ids, messageIds)) found.set(row.id, row.edge_id)
  }
  return [...found].map(([id, edgeId]) => ({ id, edgeId }))
}
