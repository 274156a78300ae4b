import type { Kysely, Selectable } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { HyMemDatabase, PurgeKind, PurgesTable } from '../kernel/tables'
import { _advanceGraphGeneration } from '../repositories/graph-generations'
import { parseArray, parseObject, requireId } from '../repositories/json'
import type { RepositoryScope } from '../repositories/scope'
import { selectInWorkspace } from '../repositories/workspace-rows'
import { type CascadePlan, purgeContent } from './cascade'
import type { PurgeTx } from './tally'
import { mergeCounts } from './tally'
import type { ForgetTarget, Purge, PurgeCompaction } from './types'

export type { ForgetTarget, Purge, PurgeCompaction, PurgeCounts } from './types'

/**
 * Deletion requests and their receipts (`purges`). A purge runs in three steps, each safe to repeat:
 * `request` records it, `removeRows` removes the content and everything derived from it in one transaction
 * (reads exclude it from then on; run again, it sweeps what a concurrent dream derived meanwhile), and
 * `compact` rewrites the full-text indexes and checkpoints the write-ahead log so the words leave the files.
 * Run the steps of an unfinished purge (after a crash) in the same order.
 */
export interface PurgesRepository {
  /** Records a request and the messages it covers (a session's or peer's messages at this moment). */
  request(workspaceId: string, target: ForgetTarget): Promise<Purge>
  /** Removes the content and what derives from it; counts add up across passes. A done purge is left alone. */
  removeRows(workspaceId: string, id: number): Promise<Purge>
  /** Rewrites the affected full-text indexes and truncates the WAL; `done` once the checkpoint completes. */
  compact(workspaceId: string, id: number): Promise<PurgeCompaction>
  /** The workspace's purge with this id, or null (also for another workspace's). */
  get(workspaceId: string, id: number): Promise<Purge | null>
  /** Purges not done yet, oldest first: of one workspace, or of all. */
  unfinished(workspaceId?: string): Promise<Purge[]>
  /** The workspace's most recent receipts, newest first. */
  recent(workspaceId: string, limit?: number): Promise<Purge[]>
}

const KINDS: readonly PurgeKind[] = ['workspace', 'session', 'messages', 'peer-messages', 'note', 'fact']

export function toPurge(row: Selectable<PurgesTable>): Purge {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    kind: row.kind,
    target: row.target,
    messageCount: parseArray(row.message_ids).length,
    status: row.status,
    removed: parseObject(row.removed) as Record<string, number>,
    requestedAt: row.requested_at,
    rowsRemovedAt: row.rows_removed_at,
    finishedAt: row.finished_at,
  }
}

export function createPurgesRepository(scope: RepositoryScope): PurgesRepository {
  const { db, context, engine } = scope
  const read = async (executor: Kysely<HyMemDatabase>, workspaceId: string, id: number) =>
    executor
      .selectFrom('purges')
      .selectAll()
      .where('workspace_id', '=', requireId(workspaceId, 'workspace id'))
      .where('id', '=', id)
      .executeTakeFirst()
  const purgeTx = (executor: Kysely<HyMemDatabase>): PurgeTx => ({
    db: executor,
    context,
    engine,
    vectors: engine.vectorsIn(executor, context),
  })

  return {
    async request(workspaceId, target) {
      requireId(workspaceId, 'workspace id')
      const { kind, id } = checkTarget(target)
      return scope.write(async (tx) => {
        const messageIds = await coveredMessages(tx, workspaceId, target)
        const row = await tx
          .insertInto('purges')
          .values({
            workspace_id: workspaceId,
            kind,
            target: id,
            message_ids: JSON.stringify(messageIds),
            requested_at: context.now(),
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        return toPurge(row)
      })
    },
    async removeRows(workspaceId, id) {
      return scope.write(async (tx) => {
        const row = await read(tx, workspaceId, id)
        if (!row) throw new StoreError('NOT_FOUND', `no purge with id ${id}`)
        if (row.status === 'done') return toPurge(row)
        const plan: CascadePlan = {
          workspaceId: row.workspace_id,
          kind: row.kind,
          target: row.target,
          messageIds: parseArray<number>(row.message_ids),
          requestedAt: row.requested_at,
          sweep: row.status !== 'requested',
        }
        const counts = await purgeContent(purgeTx(tx), plan)
        // Query caches in every process drop what they held of the forgotten content.
        await _advanceGraphGeneration(tx, workspaceId)
        const updated = await tx
          .updateTable('purges')
          .set({
            status: 'rows-removed',
            removed: JSON.stringify(mergeCounts(parseObject(row.removed) as Record<string, number>, counts)),
            rows_removed_at: row.rows_removed_at ?? context.now(),
          })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow()
        return toPurge(updated)
      })
    },
    async compact(workspaceId, id) {
      const row = await read(db, workspaceId, id)
      if (!row) throw new StoreError('NOT_FOUND', `no purge with id ${id}`)
      if (row.status === 'done') return { purge: toPurge(row), optimized: [], checkpointed: true }
      if (row.status === 'requested')
        throw new StoreError(
          'INVALID_INPUT',
          `purge ${id} has not removed its rows yet: call removeRows first`,
        )
      const removed = parseObject(row.removed) as Record<string, number>
      const { optimized, checkpointed } = await engine.compact(scope, removed, row.kind === 'workspace')
      if (!checkpointed) return { purge: toPurge(row), optimized, checkpointed }
      const done = await scope.write((tx) =>
        tx
          .updateTable('purges')
          .set({ status: 'done', finished_at: context.now() })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow(),
      )
      return { purge: toPurge(done), optimized, checkpointed }
    },
    async get(workspaceId, id) {
      const row = await read(db, workspaceId, id)
      return row ? toPurge(row) : null
    },
    async unfinished(workspaceId) {
      let query = db.selectFrom('purges').selectAll().where('status', '<>', 'done')
      if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId)
      return (await query.orderBy('id').execute()).map(toPurge)
    },
    async recent(workspaceId, limit = 20) {
      if (!Number.isInteger(limit) || limit < 1)
        throw new StoreError('INVALID_INPUT', 'limit must be an integer ≥ 1')
      const rows = await selectInWorkspace(db, 'purges', workspaceId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute()
      return rows.map(toPurge)
    },
  }
}

function checkTarget(target: ForgetTarget): { kind: PurgeKind; id: string } {
  if (typeof target !== 'object' || target === null || !KINDS.includes(target.kind))
    throw new StoreError('INVALID_INPUT', `a purge target's kind must be one of ${KINDS.join(', ')}`)
  switch (target.kind) {
    case 'workspace':
      return { kind: 'workspace', id: '' }
    case 'session':
      return { kind: 'session', id: requireId(target.sessionId, 'session id') }
    case 'peer-messages':
      return { kind: 'peer-messages', id: requireId(target.peerId, 'peer id') }
    case 'note':
      return { kind: 'note', id: requireId(target.noteId, 'note id') }
    case 'fact':
      if (!Number.isSafeInteger(target.edgeId) || target.edgeId < 1)
        throw new StoreError('INVALID_INPUT', 'a fact id must be a positive integer')
      return { kind: 'fact', id: String(target.edgeId) }
    case 'messages':
      if (!Array.isArray(target.messageIds) || !target.messageIds.every((id) => Number.isSafeInteger(id)))
        throw new StoreError('INVALID_INPUT', 'messageIds must be an array of message ids (integers)')
      return { kind: 'messages', id: '' }
  }
}

/** The workspace's messages a request covers, by internal id. */
async function coveredMessages(
  tx: Kysely<HyMemDatabase>,
  workspaceId: string,
  target: ForgetTarget,
): Promise<number[]> {
  const ids = tx.selectFrom('messages').select('id').where('workspace_id', '=', workspaceId)
  switch (target.kind) {
    case 'session':
      return (await ids.where('session_id', '=', target.sessionId).orderBy('id').execute()).map((r) => r.id)
    case 'peer-messages':
      return (await ids.where('peer_id', '=', target.peerId).orderBy('id').execute()).map((r) => r.id)
    case 'messages': {
      const wanted = [...new Set(target.messageIds)]
      const found: number[] = []
      for (let at = 0; at < wanted.length; at += 500) {
        const rows = await ids.where('id', 'in', wanted.slice(at, at + 500)).execute()
        found.push(...rows.map((r) => r.id))
      }
      return found.sort((a, b) => a - b)
    }
    default:
      return []
  }
}
