import type { StoreScope } from '@hymem/core-store'
import type * as v from 'valibot'
import { HyMemError } from '../errors'
import type { MESSAGE } from './records'

type MessageRecord = v.InferOutput<typeof MESSAGE>

/** What the message writer keeps across batches of one import. */
export interface MessageWriteState {
  /** Public id → internal id of every dump message now in the store. */
  readonly messageIds: Map<string, number>
  /** `workspace\0session` keys known to exist. */
  readonly sessions: Set<string>
  /** `workspace\0peer` keys known to exist. */
  readonly peers: Set<string>
}

const IN_CHUNK = 500
const INSERT_ROWS = 100

export const _key = (workspaceId: string, id: string) => `${workspaceId}\0${id}`

/**
 * Inserts a run of message records with a few set-based statements: existing public ids are skipped (and
 * mapped when they belong to the same workspace), sessions must exist, author peers are created.
 */
export async function writeMessages(
  tx: StoreScope,
  batch: readonly MessageRecord[],
  state: MessageWriteState,
  report: { tally: (type: string, inserted: boolean) => void; warnings: string[] },
): Promise<void> {
  const { db } = tx
  const existing = new Map<string, { id: number; workspace_id: string }>()
  for (let start = 0; start < batch.length; start += IN_CHUNK) {
    const ids = batch.slice(start, start + IN_CHUNK).map((record) => record.id)
    for (const row of await db
      .selectFrom('messages')
      .select(['id', 'public_id', 'workspace_id'])
      .where('public_id', 'in', ids)
      .execute()) {
      existing.set(row.public_id, row)
    }
  }

  const fresh: MessageRecord[] = []
  const seen = new Set<string>()
  for (const record of batch) {
    const found = existing.get(record.id)
    if (found || seen.has(record.id) || state.messageIds.has(record.id)) {
      if (found && found.workspace_id === record.workspaceId) state.messageIds.set(record.id, found.id)
      else if (found)
        report.warnings.push(`message ${record.id} exists in workspace ${found.workspace_id}: skipped`)
      report.tally('message', false)
      continue
    }
    seen.add(record.id)
    fresh.push(record)
  }
  if (fresh.length === 0) return

  for (const record of fresh) {
    const session = _key(record.workspaceId, record.sessionId)
    if (state.sessions.has(session)) continue
    const row = await db
      .selectFrom('sessions')
      .select('id')
      .where('workspace_id', '=', record.workspaceId)
      .where('id', '=', record.sessionId)
      .executeTakeFirst()
    if (!row) {
      throw new HyMemError(
        'IMPORT_FAILED',
        `message ${record.id} belongs to session ${record.sessionId}, which is neither in the dump nor in the store: nothing imported`,
      )
    }
    state.sessions.add(session)
  }
  for (const record of fresh) {
    const peer = _key(record.workspaceId, record.peerId)
    if (state.peers.has(peer)) continue
    await db
      .insertInto('peers')
      .values({ workspace_id: record.workspaceId, id: record.peerId, created_at: record.createdAt })
      .onConflict((oc) => oc.doNothing())
      .execute()
    state.peers.add(peer)
  }

  for (let start = 0; start < fresh.length; start += INSERT_ROWS) {
    const rows = fresh.slice(start, start + INSERT_ROWS)
    await db
      .insertInto('messages')
      .values(
        rows.map((record) => ({
          public_id: record.id,
          workspace_id: record.workspaceId,
          session_id: record.sessionId,
          peer_id: record.peerId,
          role: record.role,
          content: record.content,
          metadata: JSON.stringify(record.metadata),
          token_count: record.tokenCount,
          created_at: record.createdAt,
        })),
      )
      .execute()
    for (const row of await db
      .selectFrom('messages')
      .select(['id', 'public_id'])
      .where(
        'public_id',
        'in',
        rows.map((record) => record.id),
      )
      .execute()) {
      state.messageIds.set(row.public_id, row.id)
    }
    for (let i = 0; i < rows.length; i++) report.tally('message', true)
  }
}
