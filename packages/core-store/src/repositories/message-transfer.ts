import { StoreError } from '../kernel/errors'
import { objectText, requireId } from './json'
import type { MessagesRepository } from './message-types'
import { MESSAGE_ROLES, toMessage } from './message-values'
import type { RepositoryScope } from './scope'
import { selectInWorkspace } from './workspace-rows'

const IN_LIST_CHUNK = 500
const ITERATE_PAGE = 500
/** Rows per multi-row INSERT of an import. */
const IMPORT_ROWS = 100

/** The export/import side of the messages repository: whole-workspace iteration, id mapping, raw inserts. */
export function createMessageTransfer(
  scope: RepositoryScope,
): Pick<MessagesRepository, 'iterate' | 'publicIdsOf' | 'locate' | 'insertImported'> {
  const { db } = scope
  return {
    async *iterate(workspaceId) {
      let after = 0
      for (;;) {
        const page = await selectInWorkspace(db, 'messages', workspaceId)
          .where('id', '>', after)
          .orderBy('id')
          .limit(ITERATE_PAGE)
          .execute()
        for (const row of page) yield toMessage(row)
        const last = page.at(-1)
        if (!last || page.length < ITERATE_PAGE) return
        after = last.id
      }
    },
    async publicIdsOf(workspaceId, ids) {
      requireId(workspaceId, 'workspace id')
      const wanted = [...new Set(ids.filter((id) => Number.isInteger(id)))]
      const out = new Map<number, string>()
      for (let start = 0; start < wanted.length; start += IN_LIST_CHUNK) {
        const rows = await db
          .selectFrom('messages')
          .select(['id', 'public_id'])
          .where('workspace_id', '=', workspaceId)
          .where('id', 'in', wanted.slice(start, start + IN_LIST_CHUNK))
          .execute()
        for (const row of rows) out.set(row.id, row.public_id)
      }
      return out
    },
    async locate(workspaceId, publicIds) {
      if (workspaceId !== null) requireId(workspaceId, 'workspace id')
      const out = new Map<string, { id: number; workspaceId: string }>()
      for (let start = 0; start < publicIds.length; start += IN_LIST_CHUNK) {
        let query = db
          .selectFrom('messages')
          .select(['id', 'public_id', 'workspace_id'])
          .where('public_id', 'in', publicIds.slice(start, start + IN_LIST_CHUNK))
        if (workspaceId !== null) query = query.where('workspace_id', '=', workspaceId)
        const rows = await query.execute()
        for (const row of rows) out.set(row.public_id, { id: row.id, workspaceId: row.workspace_id })
      }
      return out
    },
    async insertImported(messages) {
      const rows = messages.map((message, index) => {
        const where = `message ${index}`
        requireId(message.publicId, `${where}: publicId`)
        if (!MESSAGE_ROLES.includes(message.role))
          throw new StoreError('INVALID_INPUT', `${where}: role must be one of ${MESSAGE_ROLES.join(', ')}`)
        if (!Number.isInteger(message.tokenCount) || message.tokenCount < 0)
          throw new StoreError('INVALID_INPUT', `${where}: tokenCount must be a non-negative integer`)
        return {
          public_id: message.publicId,
          workspace_id: message.workspaceId,
          session_id: message.sessionId,
          peer_id: message.peerId,
          role: message.role,
          content: message.content,
          metadata: objectText(message.metadata, `${where}: metadata`) ?? '{}',
          token_count: message.tokenCount,
          created_at: message.createdAt,
        }
      })
      const ids = new Map<string, number>()
      if (rows.length === 0) return ids
      await scope.write(async (tx) => {
        for (let start = 0; start < rows.length; start += IMPORT_ROWS) {
          const batch = rows.slice(start, start + IMPORT_ROWS)
          await tx.insertInto('messages').values(batch).execute()
          const stored = await tx
            .selectFrom('messages')
            .select(['id', 'public_id'])
            .where(
              'public_id',
              'in',
              batch.map((row) => row.public_id),
            )
            .execute()
          for (const row of stored) ids.set(row.public_id, row.id)
        }
      })
      return ids
    },
  }
}
