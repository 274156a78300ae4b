import type { Kysely } from 'kysely'
import { _filterFor, type FilterTarget, SESSION_FILTER_FIELDS } from '../filter'
import { StoreError } from '../kernel/errors'
import type { HyMemDatabase } from '../kernel/tables'
import { objectText, requireId } from './json'
import { pageWindow, toPage } from './pagination'
import type { RepositoryScope } from './scope'
import { createSessionMembers } from './session-members'
import { createSessionProgress } from './session-progress'
import { ensureSession, ensureSessionRows, toSession } from './session-rows'
import { createSessionTransfer } from './session-transfer'
import type { SessionsRepository } from './types'
import { ensureWorkspace, mergeConfiguration } from './workspaces'

const SESSION_TARGET: FilterTarget<keyof typeof SESSION_FILTER_FIELDS> = {
  name: 'sessions',
  kinds: SESSION_FILTER_FIELDS,
  columns: {
    id: 'sessions.id',
    workspaceId: 'sessions.workspace_id',
    createdAt: 'sessions.created_at',
    isActive: 'sessions.is_active',
    metadata: 'sessions.metadata',
  },
}

export function createSessionsRepository(scope: RepositoryScope): SessionsRepository {
  const { db, context } = scope
  const select = (executor: Kysely<HyMemDatabase>, workspaceId: string, id: string, lock = false) =>
    executor
      .selectFrom('sessions')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .$if(lock && scope.engine.rowLocks, (query) => query.forUpdate())
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
    async list(workspaceId, request, query = {}) {
      const window = pageWindow(request)
      const direction = window.reverse ? 'desc' : 'asc'
      const member = query.memberId
      const matching = db
        .selectFrom('sessions')
        .where('sessions.workspace_id', '=', workspaceId)
        .$if(query.includeInactive !== true, (q) => q.where('sessions.is_active', '=', 1))
        .$if(member !== undefined, (q) =>
          q.where((eb) =>
            eb.exists(
              eb
                .selectFrom('session_peers')
                .select('session_peers.peer_id')
                .whereRef('session_peers.workspace_id', '=', 'sessions.workspace_id')
                .whereRef('session_peers.session_id', '=', 'sessions.id')
                .where('session_peers.peer_id', '=', member ?? ''),
            ),
          ),
        )
        .where(_filterFor(scope.engine, SESSION_TARGET, query.filter))
      const [rows, count] = await Promise.all([
        matching
          .selectAll('sessions')
          .orderBy('sessions.created_at', direction)
          .orderBy('sessions.id', direction)
          .limit(window.size)
          .offset(window.offset)
          .execute(),
        matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return toPage(rows.map(toSession), Number(count.n), window)
    },
    async update(workspaceId, id, patch) {
      const metadata = objectText(patch.metadata, 'metadata')
      objectText(patch.configuration, 'configuration')
      return scope.write(async (tx) => {
        await ensureSessionRows(tx, workspaceId, id, context.now())
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
    ...createSessionMembers(scope),
    ...createSessionProgress(scope),
    ...createSessionTransfer(scope),
  }
}
