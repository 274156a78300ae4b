import type { StoreContext } from '../../../kernel/context'
import type { MessageRole, PeerRole } from '../../../kernel/tables'
import { firstRoles, messageOf, type PreparedMessage } from '../../../repositories/message-batch'
import type { MessagesRepository } from '../../../repositories/message-types'
import { prepareBatch } from '../../../repositories/messages'
import { inferPeerRole, messageRoleOf } from '../../../repositories/peer-role'
import type { RepositoryScope } from '../../../repositories/scope'
import type { Message } from '../../../repositories/types'
import type { StatementCache } from '../../types'

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
const INSERT_CHUNK_ROWS = 100

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
 * `messages.insertBatch` as raw cached statements: capture and imports write batches of thousands, and
 * compiling a kysely INSERT for each costs more than running it. Ids come from `lastInsertRowid`:
 * AUTOINCREMENT rows of one INSERT get consecutive ids, and no other writer can interleave inside the
 * transaction.
 */
export function sqliteMessages(statements: StatementCache) {
  return (scope: RepositoryScope, portable: MessagesRepository): MessagesRepository => ({
    ...portable,
    async insertBatch(workspaceId, sessionId, messages) {
      const prepared = await prepareBatch(workspaceId, sessionId, messages)
      if (prepared.length === 0) return []
      return scope.write(() => insertBatch(statements, scope.context, workspaceId, sessionId, prepared))
    },
  })
}

function insertBatch(
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
    const slice = batch.slice(start, start + INSERT_CHUNK_ROWS)
    const rows = slice.map((message) => messageOf(message, context, workspaceId, sessionId, roles, now))
    const params = rows.flatMap((row, at) => [
      row.publicId,
      workspaceId,
      sessionId,
      row.peerId,
      row.role,
      row.content,
      slice[at]!.metadataText,
      row.tokenCount,
      row.createdAt,
    ])
    const result = statements.prepare(insertSql(slice.length)).run(params)
    const first = Number(result.lastInsertRowid) - slice.length + 1
    rows.forEach((row, index) => {
      out.push({ id: first + index, ...row })
    })
  }
  return out
}

function resolvePeerRoles(
  statements: StatementCache,
  workspaceId: string,
  sessionId: string,
  batch: readonly PreparedMessage[],
  now: string,
): Map<string, MessageRole> {
  const roles = new Map<string, MessageRole>()
  for (const [peerId, explicit] of firstRoles(batch)) {
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
