import type { Kysely } from 'kysely'
import { loadTokenCounter } from '../../../kernel/count-tokens'
import { StoreError } from '../../../kernel/errors'
import type { HyMemDatabase, MessageRole, PeerRole } from '../../../kernel/tables'
import { requireId } from '../../../repositories/json'
import type { PreparedMessage } from '../../../repositories/message-batch'
import type { MessagesRepository } from '../../../repositories/message-types'
import { prepareMessage } from '../../../repositories/messages'
import { inferPeerRole, messageRoleOf } from '../../../repositories/peer-role'
import type { RepositoryScope } from '../../../repositories/scope'
import type { Message } from '../../../repositories/types'
import type { StoreContext } from '../../../store/types'

/** Rows per INSERT: 9 parameters a row stays far below PostgreSQL's 65535. */
const INSERT_CHUNK_ROWS = 500

/**
 * `messages.insertBatch` on PostgreSQL. SQLite's version runs raw cached statements and derives ids from
 * `lastInsertRowid`; here multi-row INSERTs return their ids, and the workspace, session, author peers and
 * memberships are created with `ON CONFLICT DO NOTHING`, so concurrent writers never race.
 */
export function postgresMessages(scope: RepositoryScope, portable: MessagesRepository): MessagesRepository {
  return {
    ...portable,
    async insertBatch(workspaceId, sessionId, messages) {
      requireId(workspaceId, 'workspace id')
      requireId(sessionId, 'session id')
      if (!Array.isArray(messages)) throw new StoreError('INVALID_INPUT', 'messages must be an array')
      const count = await loadTokenCounter()
      const prepared = messages.map((message, index) => prepareMessage(message, index, count))
      if (prepared.length === 0) return []
      return scope.write((tx) => insertBatch(tx, scope.context, workspaceId, sessionId, prepared))
    },
  }
}

async function insertBatch(
  tx: Kysely<HyMemDatabase>,
  context: StoreContext,
  workspaceId: string,
  sessionId: string,
  batch: readonly PreparedMessage[],
): Promise<Message[]> {
  const now = context.now()
  await tx
    .insertInto('workspaces')
    .values({ id: workspaceId, created_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
  await tx
    .insertInto('sessions')
    .values({ workspace_id: workspaceId, id: sessionId, started_at: now, created_at: now })
    .onConflict((oc) => oc.columns(['workspace_id', 'id']).doNothing())
    .execute()
  const roles = await resolvePeerRoles(tx, workspaceId, sessionId, batch, now)

  const out: Message[] = []
  for (let start = 0; start < batch.length; start += INSERT_CHUNK_ROWS) {
    const rows = batch.slice(start, start + INSERT_CHUNK_ROWS).map((message) => ({
      message,
      row: {
        publicId: context.newId(),
        workspaceId,
        sessionId,
        peerId: message.peerId,
        role: message.role ?? roles.get(message.peerId) ?? 'user',
        content: message.content,
        metadata: message.metadata,
        tokenCount: message.tokenCount,
        createdAt: message.createdAt ?? now,
      },
    }))
    const inserted = await tx
      .insertInto('messages')
      .values(
        rows.map(({ message, row }) => ({
          public_id: row.publicId,
          workspace_id: workspaceId,
          session_id: sessionId,
          peer_id: row.peerId,
          role: row.role,
          content: row.content,
          metadata: message.metadataText,
          token_count: row.tokenCount,
          created_at: row.createdAt,
        })),
      )
      .returning(['id', 'public_id'])
      .execute()
    const ids = new Map(inserted.map((r) => [r.public_id, r.id]))
    for (const { row } of rows) out.push({ id: ids.get(row.publicId) as number, ...row })
  }
  return out
}

/** Creates missing author peers and memberships; returns each author's message role. */
async function resolvePeerRoles(
  tx: Kysely<HyMemDatabase>,
  workspaceId: string,
  sessionId: string,
  batch: readonly PreparedMessage[],
  now: string,
): Promise<Map<string, MessageRole>> {
  const firstRole = new Map<string, MessageRole | undefined>()
  for (const message of batch) {
    if (firstRole.get(message.peerId) === undefined) firstRole.set(message.peerId, message.role)
  }
  const peers = [...firstRole].map(([peerId, explicit]) => ({
    workspace_id: workspaceId,
    id: peerId,
    role: (explicit ?? inferPeerRole(peerId)) as PeerRole,
    created_at: now,
  }))
  await tx
    .insertInto('peers')
    .values(peers)
    .onConflict((oc) => oc.columns(['workspace_id', 'id']).doNothing())
    .execute()
  await tx
    .insertInto('session_peers')
    .values(
      peers.map((peer) => ({
        workspace_id: workspaceId,
        session_id: sessionId,
        peer_id: peer.id,
        joined_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['workspace_id', 'session_id', 'peer_id']).doNothing())
    .execute()
  const stored = await tx
    .selectFrom('peers')
    .select(['id', 'role'])
    .where('workspace_id', '=', workspaceId)
    .where(
      'id',
      'in',
      peers.map((peer) => peer.id),
    )
    .execute()
  return new Map(stored.map((peer) => [peer.id, messageRoleOf(peer.role)]))
}
