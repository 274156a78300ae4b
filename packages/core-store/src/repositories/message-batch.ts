import type { StatementCache } from '../engine/types'
import type { StoreContext } from '../kernel/context'
import type { MessageRole, PeerRole } from '../kernel/tables'
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

const COLUMNS = [
  'public_id',
  'workspace_id',
  'session_id',
  'peer_id',
  'role',
  'content',
  'metadata',
  'token_count',
  'created_at',
] as const
/** Rows per INSERT: well under SQLite's 32766 bound variables, and one cached statement per size. */
export const INSERT_CHUNK_ROWS = 100

const ROW_PLACEHOLDERS = `(${COLUMNS.map(() => '?').join(',')})`
const insertSql = (rows: number) =>
  `INSERT INTO messages (${COLUMNS.join(',')}) VALUES ${Array.from({ length: rows }, () => ROW_PLACEHOLDERS).join(',')}`

const ENSURE_WORKSPACE = 'INSERT INTO workspaces (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING'
const ENSURE_SESSION =
  'INSERT INTO sessions (workspace_id, id, started_at, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING'
const PEER_ROLE = 'SELECT role FROM peers WHERE workspace_id = ? AND id = ?'
const INSERT_PEER = 'INSERT INTO peers (workspace_id, id, role, created_at) VALUES (?, ?, ?, ?)'
const ENSURE_MEMBER =
  'INSERT INTO session_peers (workspace_id, session_id, peer_id, joined_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING'

/**
 * Writes a validated batch with raw cached statements. The caller holds the connection inside a transaction.
 * Ids come from `lastInsertRowid`: AUTOINCREMENT rows of one INSERT get consecutive ids, and no other writer
 * can interleave inside the transaction.
 */
export function insertMessageBatch(
  statements: StatementCache,
  context: StoreContext,
  workspaceId: string,
  sessionId: string,
  batch: readonly PreparedMessage[],
): Message[] {
  const now = context.now()
  statements.prepare(ENSURE_WORKSPACE).run(workspaceId, now)
  statements.prepare(ENSURE_SESSION).run(workspaceId, sessionId, now, now)
  const roles = resolvePeerRoles(statements, workspaceId, sessionId, batch, now)

  const out: Message[] = []
  for (let start = 0; start < batch.length; start += INSERT_CHUNK_ROWS) {
    const chunk = batch.slice(start, start + INSERT_CHUNK_ROWS)
    const params: unknown[] = []
    const rows: Omit<Message, 'id'>[] = []
    for (const message of chunk) {
      const row = {
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
      rows.push(row)
      params.push(
        row.publicId,
        workspaceId,
        sessionId,
        row.peerId,
        row.role,
        row.content,
        message.metadataText,
        row.tokenCount,
        row.createdAt,
      )
    }
    const result = statements.prepare(insertSql(chunk.length)).run(params)
    const first = Number(result.lastInsertRowid) - chunk.length + 1
    rows.forEach((row, index) => {
      out.push({ id: first + index, ...row })
    })
  }
  return out
}

/** Creates missing author peers and memberships; returns each author's message role. */
function resolvePeerRoles(
  statements: StatementCache,
  workspaceId: string,
  sessionId: string,
  batch: readonly PreparedMessage[],
  now: string,
): Map<string, MessageRole> {
  const firstRole = new Map<string, MessageRole | undefined>()
  for (const message of batch) {
    if (!firstRole.has(message.peerId) || firstRole.get(message.peerId) === undefined) {
      firstRole.set(message.peerId, message.role)
    }
  }
  const roles = new Map<string, MessageRole>()
  for (const [peerId, explicit] of firstRole) {
    const row = statements.prepare(PEER_ROLE).get(workspaceId, peerId) as { role: PeerRole } | undefined
    let role = row?.role
    if (role === undefined) {
      role = explicit ?? inferPeerRole(peerId)
      statements.prepare(INSERT_PEER).run(workspaceId, peerId, role, now)
    }
    statements.prepare(ENSURE_MEMBER).run(workspaceId, sessionId, peerId, now)
    roles.set(peerId, messageRoleOf(role))
  }
  return roles
}
