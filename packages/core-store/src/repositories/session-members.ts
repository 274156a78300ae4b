import { sql } from 'kysely'
import { objectText, requireId } from './json'
import { listPage } from './pagination'
import { ensurePeer, toPeer } from './peers'
import type { RepositoryScope } from './scope'
import { ensureSessionRows, toSessionPeer } from './session-rows'
import type { SessionsRepository } from './types'
import { selectInWorkspace } from './workspace-rows'
import { mergeConfiguration } from './workspaces'

/** The membership half of the sessions repository (`session_peers`). */
export type SessionMembers = Pick<
  SessionsRepository,
  | 'addPeers'
  | 'removePeers'
  | 'listPeers'
  | 'listMemberPeers'
  | 'getPeer'
  | 'setPeerConfiguration'
  | 'listIdsForPeer'
>

export function createSessionMembers(scope: RepositoryScope): SessionMembers {
  const { db, context } = scope
  return {
    async addPeers(workspaceId, sessionId, peers) {
      const members = peers.map((peer) => ({
        peerId: requireId(peer.peerId, 'peer id'),
        configuration: objectText(peer.configuration, 'configuration'),
      }))
      await scope.write(async (tx) => {
        const now = await ensureSessionRows(tx, workspaceId, sessionId, context.now())
        for (const member of members) {
          await ensurePeer(tx, workspaceId, member.peerId, now)
          await tx
            .insertInto('session_peers')
            .values({
              workspace_id: workspaceId,
              session_id: sessionId,
              peer_id: member.peerId,
              configuration: member.configuration ?? '{}',
              joined_at: now,
            })
            .onConflict((oc) =>
              oc.columns(['workspace_id', 'session_id', 'peer_id']).doUpdateSet({
                left_at: null,
                joined_at: sql`CASE WHEN session_peers.left_at IS NULL THEN session_peers.joined_at ELSE excluded.joined_at END`,
                configuration:
                  member.configuration === undefined
                    ? sql`session_peers.configuration`
                    : sql`excluded.configuration`,
              }),
            )
            .execute()
        }
      })
    },
    async removePeers(workspaceId, sessionId, peerIds) {
      if (peerIds.length === 0) return
      await scope.write(async (tx) => {
        await tx
          .updateTable('session_peers')
          .set({ left_at: context.now() })
          .where('workspace_id', '=', workspaceId)
          .where('session_id', '=', sessionId)
          .where('peer_id', 'in', peerIds)
          .where('left_at', 'is', null)
          .execute()
      })
    },
    async listPeers(workspaceId, sessionId) {
      const rows = await selectInWorkspace(db, 'session_peers', workspaceId)
        .where('session_id', '=', sessionId)
        .where('left_at', 'is', null)
        .orderBy('joined_at')
        .orderBy(scope.engine.insertionOrder)
        .execute()
      return rows.map(toSessionPeer)
    },
    async listMemberPeers(workspaceId, sessionId, request) {
      const members = db
        .selectFrom('session_peers')
        .innerJoin('peers', (join) =>
          join
            .onRef('peers.workspace_id', '=', 'session_peers.workspace_id')
            .onRef('peers.id', '=', 'session_peers.peer_id'),
        )
        .where('session_peers.workspace_id', '=', workspaceId)
        .where('session_peers.session_id', '=', sessionId)
        .where('session_peers.left_at', 'is', null)
      return listPage(
        request,
        members,
        (rows, direction) =>
          rows
            .selectAll('peers')
            .orderBy('session_peers.joined_at', direction)
            .orderBy(scope.engine.insertionOrderOf('session_peers'), direction),
        toPeer,
      )
    },
    async getPeer(workspaceId, sessionId, peerId) {
      const row = await selectInWorkspace(db, 'session_peers', workspaceId)
        .where('session_id', '=', sessionId)
        .where('peer_id', '=', peerId)
        .executeTakeFirst()
      return row ? toSessionPeer(row) : null
    },
    async setPeerConfiguration(workspaceId, sessionId, peerId, configuration) {
      requireId(peerId, 'peer id')
      objectText(configuration, 'configuration')
      await scope.write(async (tx) => {
        const now = await ensureSessionRows(tx, workspaceId, sessionId, context.now())
        await ensurePeer(tx, workspaceId, peerId, now)
        const current = await tx
          .selectFrom('session_peers')
          .select('configuration')
          .where('workspace_id', '=', workspaceId)
          .where('session_id', '=', sessionId)
          .where('peer_id', '=', peerId)
          .$if(scope.engine.rowLocks, (query) => query.forUpdate())
          .executeTakeFirst()
        const merged = mergeConfiguration(current?.configuration ?? '{}', configuration)
        await tx
          .insertInto('session_peers')
          .values({
            workspace_id: workspaceId,
            session_id: sessionId,
            peer_id: peerId,
            configuration: merged,
            joined_at: now,
          })
          .onConflict((oc) =>
            oc.columns(['workspace_id', 'session_id', 'peer_id']).doUpdateSet({ configuration: merged }),
          )
          .execute()
      })
    },
    async listIdsForPeer(workspaceId, peerId) {
      requireId(workspaceId, 'workspace id')
      const rows = await db
        .selectFrom('session_peers')
        .select('session_id')
        .where('workspace_id', '=', workspaceId)
        .where('peer_id', '=', peerId)
        .execute()
      return rows.map((row) => row.session_id)
    },
  }
}
