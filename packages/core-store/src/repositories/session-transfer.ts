import { StoreError } from '../kernel/errors'
import { objectText, requireId } from './json'
import type { RepositoryScope } from './scope'
import { toSession, toSessionPeer } from './session-rows'
import type { SessionPeer, SessionsRepository } from './types'
import { selectInWorkspace } from './workspace-rows'

/** The sessions methods of export and import: whole-workspace snapshots and rows stored as given. */
export function createSessionTransfer(
  scope: RepositoryScope,
): Pick<SessionsRepository, 'listAll' | 'insertIfAbsent' | 'insertPeerIfAbsent' | 'setMessagePointers'> {
  const { db } = scope
  return {
    async listAll(workspaceId) {
      const sessions = await selectInWorkspace(db, 'sessions', workspaceId).orderBy('id').execute()
      const members = await selectInWorkspace(db, 'session_peers', workspaceId)
        .orderBy('session_id')
        .orderBy('joined_at')
        .orderBy('peer_id')
        .execute()
      const bySession = new Map<string, SessionPeer[]>()
      for (const row of members) {
        const list = bySession.get(row.session_id)
        if (list) list.push(toSessionPeer(row))
        else bySession.set(row.session_id, [toSessionPeer(row)])
      }
      return sessions.map((row) => ({
        ...toSession(row),
        lastChunkedMessageId: row.last_chunked_message_id,
        members: bySession.get(row.id) ?? [],
      }))
    },
    async insertIfAbsent(session) {
      requireId(session.workspaceId, 'workspace id')
      requireId(session.id, 'session id')
      const values = {
        workspace_id: session.workspaceId,
        id: session.id,
        is_active: session.isActive ? 1 : 0,
        metadata: objectText(session.metadata, 'metadata') ?? '{}',
        configuration: objectText(session.configuration, 'configuration') ?? '{}',
        summary: session.summary,
        summary_updated_at: session.summaryUpdatedAt,
        started_at: session.startedAt,
        ended_at: session.endedAt,
        created_at: session.createdAt,
      }
      const result = await scope.write((tx) =>
        tx
          .insertInto('sessions')
          .values(values)
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst(),
      )
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async insertPeerIfAbsent(member) {
      requireId(member.peerId, 'peer id')
      const values = {
        workspace_id: member.workspaceId,
        session_id: member.sessionId,
        peer_id: member.peerId,
        configuration: objectText(member.configuration, 'configuration') ?? '{}',
        joined_at: member.joinedAt,
        left_at: member.leftAt,
      }
      const result = await scope.write((tx) =>
        tx
          .insertInto('session_peers')
          .values(values)
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst(),
      )
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async setMessagePointers(workspaceId, id, pointers) {
      const { summaryMessageId, lastChunkedMessageId } = pointers
      if (summaryMessageId !== null && !Number.isInteger(summaryMessageId))
        throw new StoreError('INVALID_INPUT', 'summaryMessageId must be an integer message id or null')
      if (!Number.isInteger(lastChunkedMessageId) || lastChunkedMessageId < 0)
        throw new StoreError('INVALID_INPUT', 'lastChunkedMessageId must be a non-negative integer')
      await scope.write((tx) =>
        tx
          .updateTable('sessions')
          .set({ summary_message_id: summaryMessageId, last_chunked_message_id: lastChunkedMessageId })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .execute(),
      )
    },
  }
}
