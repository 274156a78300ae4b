import type { Selectable } from 'kysely'
import type { SessionPeersTable, SessionsTable } from '../schema/tables'
import { parseObject } from './json'
import type { Session, SessionPeer } from './types'

export function toSession(row: Selectable<SessionsTable>): Session {
  return {
    workspaceId: row.workspace_id,
    id: row.id,
    isActive: row.is_active === 1,
    metadata: parseObject(row.metadata),
    configuration: parseObject(row.configuration),
    summary: row.summary,
    summaryMessageId: row.summary_message_id,
    summaryUpdatedAt: row.summary_updated_at,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    createdAt: row.created_at,
  }
}

export function toSessionPeer(row: Selectable<SessionPeersTable>): SessionPeer {
  return {
    workspaceId: row.workspace_id,
    sessionId: row.session_id,
    peerId: row.peer_id,
    configuration: parseObject(row.configuration),
    joinedAt: row.joined_at,
    leftAt: row.left_at,
  }
}
