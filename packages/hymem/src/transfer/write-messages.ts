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

export const _key = (workspaceId: string, id: string) => `${workspaceId}\0${id}`

/**
 * Inserts a run of message records with a few set-based statements: existing public ids are skipped (and
 * mapped when they belong to the same workspace), sessions must exist, author peers are created. Returns the
 * records inserted.
 */
export async function writeMessages(
  tx: StoreScope,
  batch: readonly MessageRecord[],
  state: MessageWriteState,
  report: { tally: (type: string, inserted: boolean) => void; warnings: string[] },
): Promise<MessageRecord[]> {
  const existing = await tx.messages.locate(
    null,
    batch.map((record) => record.id),
  )

  const fresh: MessageRecord[] = []
  const seen = new Set<string>()
  for (const record of batch) {
    const found = existing.get(record.id)
    if (found || seen.has(record.id) || state.messageIds.has(record.id)) {
      if (found && found.workspaceId === record.workspaceId) state.messageIds.set(record.id, found.id)
      else if (found)
        report.warnings.push(`message ${record.id} exists in workspace ${found.workspaceId}: skipped`)
      report.tally('message', false)
      continue
    }
    seen.add(record.id)
    fresh.push(record)
  }
  if (fresh.length === 0) return []

  for (const record of fresh) {
    const session = _key(record.workspaceId, record.sessionId)
    if (state.sessions.has(session)) continue
    if (!(await tx.sessions.get(record.workspaceId, record.sessionId))) {
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
    await tx.peers.insertIfAbsent({
      workspaceId: record.workspaceId,
      id: record.peerId,
      createdAt: record.createdAt,
    })
    state.peers.add(peer)
  }

  const ids = await tx.messages.insertImported(fresh.map((record) => ({ ...record, publicId: record.id })))
  for (const [publicId, id] of ids) state.messageIds.set(publicId, id)
  for (let i = 0; i < fresh.length; i++) report.tally('message', true)
  return fresh
}
