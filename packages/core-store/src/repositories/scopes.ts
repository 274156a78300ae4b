import type { Insertable, Selectable } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { ScopesTable } from '../kernel/tables'
import { objectText, parseObject, requireId } from './json'
import { listPage } from './pagination'
import type { RepositoryScope } from './scope'
import { toSession } from './session-rows'
import type { GetOrCreated, JsonObject, Page, PageRequest, Session } from './types'
import { selectInWorkspace } from './workspace-rows'
import { ensureWorkspace } from './workspaces'

/** A named set of sessions that chat, context and search can be restricted to. */
export interface Scope {
  readonly workspaceId: string
  readonly id: string
  readonly metadata: JsonObject
  readonly createdAt: string
}

/** One session of a scope. */
export interface ScopeMember {
  readonly sessionId: string
  readonly joinedAt: string
  /** Active (not forgotten) notes of the session. */
  readonly notes: number
}

export function toScope(row: Selectable<ScopesTable>): Scope {
  return {
    workspaceId: row.workspace_id,
    id: row.id,
    metadata: parseObject(row.metadata),
    createdAt: row.created_at,
  }
}

export function fromScope(value: Scope): Insertable<ScopesTable> {
  return {
    workspace_id: value.workspaceId,
    id: value.id,
    metadata: JSON.stringify(value.metadata),
    created_at: value.createdAt,
  }
}

/** Scopes (`scopes`, `scope_sessions`): named groups of sessions. */
export interface ScopesRepository {
  /** Returns the existing scope unchanged, or creates it (and its workspace). */
  getOrCreate(workspaceId: string, id: string, init?: { metadata?: JsonObject }): Promise<GetOrCreated<Scope>>
  get(workspaceId: string, id: string): Promise<Scope | null>
  /** Oldest first (creation time, then id) unless `reverse`. */
  list(workspaceId: string, page?: PageRequest): Promise<Page<Scope>>
  /** Adds sessions to a scope, creating the scope when missing; members keep their join time. */
  addSessions(workspaceId: string, scopeId: string, sessionIds: readonly string[]): Promise<void>
  removeSession(workspaceId: string, scopeId: string, sessionId: string): Promise<void>
  /** The scope's sessions in join order (then id) unless `reverse`. */
  listSessions(workspaceId: string, scopeId: string, page?: PageRequest): Promise<Page<Session>>
  /** Ids of the sessions in any of these scopes, each once. */
  sessionIds(workspaceId: string, scopeIds: readonly string[]): Promise<string[]>
  /** Every session of the scope with its join time and note count. */
  members(workspaceId: string, scopeId: string): Promise<ScopeMember[]>
}

export function createScopesRepository(scope: RepositoryScope): ScopesRepository {
  const { db, context } = scope

  return {
    async getOrCreate(workspaceId, id, init = {}) {
      requireId(workspaceId, 'workspace id')
      requireId(id, 'scope id')
      const metadata = objectText(init.metadata, 'metadata')
      return scope.write(async (tx) => {
        const now = context.now()
        await ensureWorkspace(tx, workspaceId, now)
        const result = await tx
          .insertInto('scopes')
          .values({ workspace_id: workspaceId, id, created_at: now, ...(metadata ? { metadata } : {}) })
          .onConflict((oc) => oc.columns(['workspace_id', 'id']).doNothing())
          .executeTakeFirst()
        const row = await selectInWorkspace(tx, 'scopes', workspaceId)
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
        return { value: toScope(row), created: Number(result.numInsertedOrUpdatedRows ?? 0) > 0 }
      })
    },
    async get(workspaceId, id) {
      const row = await selectInWorkspace(db, 'scopes', workspaceId).where('id', '=', id).executeTakeFirst()
      return row ? toScope(row) : null
    },
    async list(workspaceId, request) {
      const matching = db.selectFrom('scopes').where('workspace_id', '=', workspaceId)
      return listPage(
        request,
        matching,
        (rows, direction) => rows.selectAll().orderBy('created_at', direction).orderBy('id', direction),
        toScope,
      )
    },
    async addSessions(workspaceId, scopeId, sessionIds) {
      requireId(workspaceId, 'workspace id')
      requireId(scopeId, 'scope id')
      if (!Array.isArray(sessionIds)) throw new StoreError('INVALID_INPUT', 'session ids must be a list')
      const unique = [...new Set(sessionIds.map((id) => requireId(id, 'session id')))]
      await scope.write(async (tx) => {
        const now = context.now()
        await ensureWorkspace(tx, workspaceId, now)
        await tx
          .insertInto('scopes')
          .values({ workspace_id: workspaceId, id: scopeId, created_at: now })
          .onConflict((oc) => oc.columns(['workspace_id', 'id']).doNothing())
          .execute()
        for (const sessionId of unique) {
          await tx
            .insertInto('scope_sessions')
            .values({ workspace_id: workspaceId, scope_id: scopeId, session_id: sessionId, joined_at: now })
            .onConflict((oc) => oc.columns(['workspace_id', 'scope_id', 'session_id']).doNothing())
            .execute()
        }
      })
    },
    async removeSession(workspaceId, scopeId, sessionId) {
      await scope.write((tx) =>
        tx
          .deleteFrom('scope_sessions')
          .where('workspace_id', '=', workspaceId)
          .where('scope_id', '=', scopeId)
          .where('session_id', '=', sessionId)
          .execute(),
      )
    },
    async listSessions(workspaceId, scopeId, request) {
      const matching = db
        .selectFrom('scope_sessions')
        .innerJoin('sessions', (join) =>
          join
            .onRef('sessions.workspace_id', '=', 'scope_sessions.workspace_id')
            .onRef('sessions.id', '=', 'scope_sessions.session_id'),
        )
        .where('scope_sessions.workspace_id', '=', workspaceId)
        .where('scope_sessions.scope_id', '=', scopeId)
      return listPage(
        request,
        matching,
        (rows, direction) =>
          rows
            .selectAll('sessions')
            .orderBy('scope_sessions.joined_at', direction)
            .orderBy('sessions.id', direction),
        toSession,
      )
    },
    async sessionIds(workspaceId, scopeIds) {
      if (scopeIds.length === 0) return []
      const rows = await db
        .selectFrom('scope_sessions')
        .select('session_id')
        .distinct()
        .where('workspace_id', '=', workspaceId)
        .where('scope_id', 'in', scopeIds)
        .execute()
      return rows.map((row) => row.session_id)
    },
    async members(workspaceId, scopeId) {
      const rows = await db
        .selectFrom('scope_sessions')
        .select(['session_id', 'joined_at'])
        .select((eb) =>
          eb
            .selectFrom('notes')
            .select((inner) => inner.fn.countAll<number>().as('n'))
            .where('notes.workspace_id', '=', workspaceId)
            .whereRef('notes.session_id', '=', 'scope_sessions.session_id')
            .where('notes.archived_at', 'is', null)
            .as('notes'),
        )
        .where('workspace_id', '=', workspaceId)
        .where('scope_id', '=', scopeId)
        .execute()
      return rows.map((row) => ({
        sessionId: row.session_id,
        joinedAt: row.joined_at,
        notes: Number(row.notes ?? 0),
      }))
    },
  }
}
