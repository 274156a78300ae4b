import type { HyMemDatabase, Message, Peer, Session, Workspace } from '@hymem/core-store'
import type { Selectable } from 'kysely'
import { jsonObject } from '../wire/shapes'

function parse(text: string): Record<string, unknown> {
  try {
    return jsonObject(JSON.parse(text))
  } catch {
    return {}
  }
}

export function messageFromRow(row: Selectable<HyMemDatabase['messages']>): Message {
  return {
    id: row.id,
    publicId: row.public_id,
    workspaceId: row.workspace_id,
    sessionId: row.session_id,
    peerId: row.peer_id,
    role: row.role,
    content: row.content,
    metadata: parse(row.metadata),
    tokenCount: row.token_count,
    createdAt: row.created_at,
  }
}

export function workspaceFromRow(row: Selectable<HyMemDatabase['workspaces']>): Workspace {
  return {
    id: row.id,
    metadata: parse(row.metadata),
    configuration: parse(row.configuration),
    createdAt: row.created_at,
  }
}

export function peerFromRow(row: Selectable<HyMemDatabase['peers']>): Peer {
  return {
    workspaceId: row.workspace_id,
    id: row.id,
    role: row.role,
    metadata: parse(row.metadata),
    configuration: parse(row.configuration),
    createdAt: row.created_at,
  }
}

export function sessionFromRow(row: Selectable<HyMemDatabase['sessions']>): Session {
  return {
    workspaceId: row.workspace_id,
    id: row.id,
    isActive: row.is_active === 1,
    metadata: parse(row.metadata),
    configuration: parse(row.configuration),
    summary: row.summary,
    summaryMessageId: row.summary_message_id,
    summaryUpdatedAt: row.summary_updated_at,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    createdAt: row.created_at,
  }
}
