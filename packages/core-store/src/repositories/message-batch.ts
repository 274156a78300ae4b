import type { Kysely } from 'kysely'
import type { StoreContext } from '../kernel/context'
import type { HyMemDatabase, MessageRole, PeerRole } from '../kernel/tables'
import { inferPeerRole, messageRoleOf } from './peer-role'
import type { JsonObject, Message } from './types'

/** A validated message, ready to write. */
export interface PreparedMessage {
  readonly peerId: string
  readonly role: MessageRole | undefined
  readonly content: string
  readonly metadataText: string
  readonly metadata: JsonObject
  readonly createdAt: string | undefined
  readonly tokenCount: number
}

/** Rows per INSERT: at 9 parameters a row, far below SQLite's 32766 and PostgreSQL's 65535 bound values. */
const INSERT_CHUNK_ROWS = 500
/** Author peers per INSERT (4 parameters each), for a batch of many distinct authors. */
const PEER_CHUNK_ROWS = 2000

/**
 * Writes a validated batch inside the caller's transaction `tx`: the workspace, session, author peers and
 * memberships are created with `ON CONFLICT DO NOTHING`, so concurrent writers never race, and multi-row
 * INSERTs return their ids.
 */
export async function insertMessageBatch(
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
  const roles = new Map<string, MessageRole>()
  const peers = [...firstRoles(batch)]
  for (let start = 0; start < peers.length; start += PEER_CHUNK_ROWS) {
    const slice = peers.slice(start, start + PEER_CHUNK_ROWS)
    for (const [id, role] of await resolvePeerRoles(tx, workspaceId, sessionId, slice, now))
      roles.set(id, role)
  }

  const out: Message[] = []
  for (let start = 0; start < batch.length; start += INSERT_CHUNK_ROWS) {
    const slice = batch.slice(start, start + INSERT_CHUNK_ROWS)
    const rows = slice.map((message) => messageOf(message, context, workspaceId, sessionId, roles, now))
    const inserted = await tx
      .insertInto('messages')
      .values(rows.map((row, at) => messageRow(row, slice[at]!.metadataText)))
      .returning(['id', 'public_id'])
      .execute()
    const ids = new Map(inserted.map((r) => [r.public_id, r.id]))
    for (const row of rows) out.push({ id: ids.get(row.publicId) as number, ...row })
  }
  return out
}

/** The message a prepared one becomes, without its id; the author's role fills a missing one. */
export function messageOf(
  message: PreparedMessage,
  context: StoreContext,
  workspaceId: string,
  sessionId: string,
  roles: ReadonlyMap<string, MessageRole>,
  now: string,
): Omit<Message, 'id'> {
  return {
    publicId: context.newId(),
    workspaceId,
    sessionId,
    peerId: message.peerId,
    role: message.role ?? roles.get(message.peerId) ?? 'user',
    content: message.content,
    metadata: message.metadata,
    tokenCount: message.tokenCount,
    createdAt: message.createdAt ?? now,
  }
}

function messageRow(row: Omit<Message, 'id'>, metadataText: string) {
  return {
    public_id: row.publicId,
    workspace_id: row.workspaceId,
    session_id: row.sessionId,
    peer_id: row.peerId,
    role: row.role,
    content: row.content,
    metadata: metadataText,
    token_count: row.tokenCount,
    created_at: row.createdAt,
  }
}

/** The role each author's first message of `batch` gives, when one does. */
export function firstRoles(batch: readonly PreparedMessage[]): Map<string, MessageRole | undefined> {
  const firstRole = new Map<string, MessageRole | undefined>()
  for (const message of batch) {
    if (firstRole.get(message.peerId) === undefined) firstRole.set(message.peerId, message.role)
  }
  return firstRole
}

/** Creates missing author peers and memberships; returns each author's message role. */
async function resolvePeerRoles(
  tx: Kysely<HyMemDatabase>,
  workspaceId: string,
  sessionId: string,
  authors: readonly (readonly [string, MessageRole | undefined])[],
  now: string,
): Promise<Map<string, MessageRole>> {
  const peers = authors.map(([peerId, explicit]) => ({
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
