import type { Kysely, Selectable } from 'kysely'
import type { HyMemDatabase, SessionPeersTable, SessionsTable } from '../kernel/tables'
import { parseObject, requireId } from './json'
import type { Session, SessionPeer } from './types'
import { ensureWorkspace } from './workspaces'

/** A `sessions` row as a {@link Session}. */
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

/** A `session_peers` row as a {@link SessionPeer}. */
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

/** Inserts the session row when missing; true when created. The workspace must exist. */
export async function ensureSession(
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  id: string,
  now: string,
  init: { metadata?: string; configuration?: string } = {},
): Promise<boolean> {
  const result = await db
    .insertInto('sessions')
    .values({ workspace_id: workspaceId, id, started_at: now, created_at: now, ...init })
    .onConflict((oc) => oc.columns(['workspace_id', 'id']).doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
}

/** Creates the workspace and the session when missing (inside the caller's transaction); returns the time used. */
export async function ensureSessionRows(
  tx: Kysely<HyMemDatabase>,
  workspaceId: string,
  sessionId: string,
  now: string,
): Promise<string> {
  requireId(workspaceId, 'workspace id')
  requireId(sessionId, 'session id')
  await ensureWorkspace(tx, workspaceId, now)
  await ensureSession(tx, workspaceId, sessionId, now)
  return now
}
