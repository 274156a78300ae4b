import type { Selectable } from 'kysely'
import type { MessageRole, MessagesTable } from '../kernel/tables'
import { parseObject } from './json'
import type { Message } from './types'

export const MESSAGE_ROLES: readonly MessageRole[] = ['user', 'assistant', 'system', 'tool']

export function toMessage(row: Selectable<MessagesTable>): Message {
  return {
    id: row.id,
    publicId: row.public_id,
    workspaceId: row.workspace_id,
    sessionId: row.session_id,
    peerId: row.peer_id,
    role: row.role,
    content: row.content,
    metadata: parseObject(row.metadata),
    tokenCount: row.token_count,
    createdAt: row.created_at,
  }
}
