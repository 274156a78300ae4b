import { type Kysely, type Selectable, sql } from 'kysely'
import type { HyMemDatabase, SessionPeersTable, SessionsTable } from '../schema/tables'
import { StoreError } from '../store/errors'
import { objectText, parseObject, requireId } from './json'
import { pageWindow, toPage } from './pagination'
import { ensurePeer } from './peers'
import type { RepositoryScope } from './scope'
import type { Session, SessionPeer, SessionsRepository } from './types'
import { ensureWorkspace, mergeConfiguration } from './workspaces'

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

function toSessionPeer(row: Selectable<SessionPeersTable>): SessionPeer {
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

export function createSessionsRepository(scope: RepositoryScope): SessionsRepository {
  const { db, context } = scope
  const select = (executor: Kysely<HyMemDatabase>, workspaceId: string, id: string, lock = false) =>
    executor
      .selectFrom('sessions')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .$if(lock && scope.backend.rowLocks, (query) => query.forUpdate())
      .executeTakeFirst()
  /** `lock` holds the row until the transaction ends, for a read-merge-write (PostgreSQL). */
  const requireSession = async (
    executor: Kysely<HyMemDatabase>,
    workspaceId: string,
    id: string,
    lock = false,
  ) => {
    const row = await select(executor, workspaceId, id, lock)
    if (!row) throw new StoreError('NOT_FOUND', `session ${id} not found in workspace ${workspaceId}`)
    return row
  }
  const ensureAll = async (tx: Kysely<HyMemDatabase>, workspaceId: string, sessionId: string) => {
    requireId(workspaceId, 'workspace id')
    requireId(sessionId, 'session id')
    const now = context.now()
    await ensureWorkspace(tx, workspaceId, now)
    await ensureSession(tx, workspaceId, sessionId, now)
    return now
  }

  return {
    async getOrCreate(workspaceId, id, init = {}) {
      requireId(workspaceId, 'workspace id')
      requireId(id, 'session id')
      const metadata = objectText(init.metadata, 'metadata')
      const configuration = objectText(init.configuration, 'configuration')
      return scope.write(async (tx) => {
        const now = context.now()
        await ensureWorkspace(tx, workspaceId, now)
        const created = await ensureSession(tx, workspaceId, id, now, { metadata, configuration })
        return { value: toSession(await requireSession(tx, workspaceId, id)), created }
      })
    },
    async get(workspaceId, id) {
      const row = await select(db, workspaceId, id)
      return row ? toSession(row) : null
    },
    async list(workspaceId, request) {
      const window = pageWindow(request)
      const direction = window.reverse ? 'desc' : 'asc'
      const [rows, count] = await Promise.all([
        db
          .selectFrom('sessions')
          .selectAll()
          .where('workspace_id', '=', workspaceId)
          .where('is_active', '=', 1)
          .orderBy('created_at', direction)
          .orderBy(scope.backend.insertionOrder, direction)
          .limit(window.size)
          .offset(window.offset)
          .execute(),
        db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('workspace_id', '=', workspaceId)
          .where('is_active', '=', 1)
          .executeTakeFirstOrThrow(),
      ])
      return toPage(rows.map(toSession), Number(count.n), window)
    },
    async update(workspaceId, id, patch) {
      const metadata = objectText(patch.metadata, 'metadata')
      objectText(patch.configuration, 'configuration')
      return scope.write(async (tx) => {
        await ensureAll(tx, workspaceId, id)
        const current = await requireSession(tx, workspaceId, id, true)
        await tx
          .updateTable('sessions')
          .set({
            ...(metadata === undefined ? {} : { metadata }),
            configuration: mergeConfiguration(current.configuration, patch.configuration),
          })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .execute()
        return toSession(await requireSession(tx, workspaceId, id))
      })
    },
    async setActive(workspaceId, id, active) {
      await scope.write(async (tx) => {
        await requireSession(tx, workspaceId, id)
        await tx
          .updateTable('sessions')
          .set({ is_active: active ? 1 : 0, ended_at: active ? null : context.now() })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .execute()
      })
    },
    async setSummary(workspaceId, id, summary) {
      if (typeof summary.text !== 'string')
        throw new StoreError('INVALID_INPUT', 'summary text must be a string')
      if (!Number.isInteger(summary.messageId)) {
        throw new StoreError('INVALID_INPUT', 'summary messageId must be an integer message id')
      }
      await scope.write(async (tx) => {
        await requireSession(tx, workspaceId, id)
        await tx
          .updateTable('sessions')
          .set({
            summary: summary.text,
            summary_message_id: summary.messageId,
            summary_updated_at: context.now(),
          })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .execute()
      })
    },
    async addPeers(workspaceId, sessionId, peers) {
      const members = peers.map((peer) => ({
        peerId: requireId(peer.peerId, 'peer id'),
        configuration: objectText(peer.configuration, 'configuration'),
      }))
      await scope.write(async (tx) => {
        const now = await ensureAll(tx, workspaceId, sessionId)
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
      const rows = await db
        .selectFrom('session_peers')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('session_id', '=', sessionId)
        .where('left_at', 'is', null)
        .orderBy('joined_at')
        .orderBy(scope.backend.insertionOrder)
        .execute()
      return rows.map(toSessionPeer)
    },
    async getPeer(workspaceId, sessionId, peerId) {
      const row = await db
        .selectFrom('session_peers')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('session_id', '=', sessionId)
        .where('peer_id', '=', peerId)
        .executeTakeFirst()
      return row ? toSessionPeer(row) : null
    },
    async setPeerConfiguration(workspaceId, sessionId, peerId, configuration) {
      requireId(peerId, 'peer id')
      objectText(configuration, 'configuration')
      await scope.write(async (tx) => {
        const now = await ensureAll(tx, workspaceId, sessionId)
        await ensurePeer(tx, workspaceId, peerId, now)
        const current = await tx
          .selectFrom('session_peers')
          .select('configuration')
          .where('workspace_id', '=', workspaceId)
          .where('session_id', '=', sessionId)
          .where('peer_id', '=', peerId)
          .$if(scope.backend.rowLocks, (query) => query.forUpdate())
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
    async listAll(workspaceId) {
      const sessions = await db
        .selectFrom('sessions')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .execute()
      const members = await db
        .selectFrom('session_peers')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
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
    async unchunkedCounts(workspaceId) {
      const rows = await db
        .selectFrom('messages as m')
        .innerJoin('sessions as s', (join) =>
          join.onRef('s.workspace_id', '=', 'm.workspace_id').onRef('s.id', '=', 'm.session_id'),
        )
        .where('m.workspace_id', '=', workspaceId)
        .whereRef('m.id', '>', 's.last_chunked_message_id')
        .select(['m.session_id as sessionId', (eb) => eb.fn.countAll<number>().as('pending')])
        .groupBy('m.session_id')
        .orderBy('m.session_id')
        .execute()
      return rows.map((row) => ({ sessionId: row.sessionId, messages: Number(row.pending) }))
    },
  }
}
