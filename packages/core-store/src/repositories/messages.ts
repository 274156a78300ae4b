import type { Selectable } from 'kysely'
import type { MessageRole, MessagesTable } from '../schema/tables'
import { StoreError } from '../store/errors'
import { ISO_TIME_HINT, parseIsoTime } from '../time'
import { isJsonObject, objectText, parseObject, requireId } from './json'
import { insertMessageBatch, type PreparedMessage } from './message-batch'
import { pageWindow, toPage } from './pagination'
import type { RepositoryScope } from './scope'
import type { Message, MessagesRepository, NewMessage } from './types'

const MESSAGE_ROLES: readonly MessageRole[] = ['user', 'assistant', 'system', 'tool']
/** Default page of `listAfter`, so the chunker never loads a whole session at once. */
export const DEFAULT_LIST_AFTER_LIMIT = 1000
const IN_LIST_CHUNK = 500
const ITERATE_PAGE = 500
/** Rows per multi-row INSERT of an import. */
const IMPORT_ROWS = 100

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

/** Token count used when the caller gives none: about four characters per token. */
export function estimateTokens(content: string): number {
  return Math.ceil(content.length / 4)
}

/** Validates one message of a batch (`index` names it in errors). */
export function prepareMessage(message: NewMessage, index: number): PreparedMessage {
  const where = `message ${index}`
  if (!isJsonObject(message)) throw new StoreError('INVALID_INPUT', `${where} must be an object`)
  requireId(message.peerId, `${where}: peerId`)
  if (typeof message.content !== 'string')
    throw new StoreError('INVALID_INPUT', `${where}: content must be a string`)
  if (message.role !== undefined && !MESSAGE_ROLES.includes(message.role)) {
    throw new StoreError('INVALID_INPUT', `${where}: role must be one of ${MESSAGE_ROLES.join(', ')}`)
  }
  let createdAt: string | undefined
  if (message.createdAt !== undefined) {
    const parsed = parseIsoTime(message.createdAt)
    if (parsed === null) throw new StoreError('INVALID_INPUT', `${where}: createdAt must be ${ISO_TIME_HINT}`)
    createdAt = parsed
  }
  const tokenCount = message.tokenCount ?? estimateTokens(message.content)
  if (!Number.isInteger(tokenCount) || tokenCount < 0) {
    throw new StoreError('INVALID_INPUT', `${where}: tokenCount must be a non-negative integer`)
  }
  const metadataText = objectText(message.metadata, `${where}: metadata`)
  return {
    peerId: message.peerId,
    role: message.role,
    content: message.content,
    metadataText: metadataText ?? '{}',
    metadata: metadataText === undefined ? {} : parseObject(metadataText),
    createdAt,
    tokenCount,
  }
}

export function createMessagesRepository(scope: RepositoryScope): MessagesRepository {
  const { db, context } = scope

  return {
    async insertBatch(workspaceId, sessionId, messages) {
      requireId(workspaceId, 'workspace id')
      requireId(sessionId, 'session id')
      if (!Array.isArray(messages)) throw new StoreError('INVALID_INPUT', 'messages must be an array')
      const prepared = messages.map(prepareMessage)
      if (prepared.length === 0) return []
      return scope.write(() =>
        insertMessageBatch(scope.statements, context, workspaceId, sessionId, prepared),
      )
    },
    async getByPublicId(workspaceId, publicId) {
      const row = await db
        .selectFrom('messages')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('public_id', '=', publicId)
        .executeTakeFirst()
      return row ? toMessage(row) : null
    },
    async getByIds(ids) {
      const unique = [...new Set(ids)]
      const byId = new Map<number, Message>()
      for (let start = 0; start < unique.length; start += IN_LIST_CHUNK) {
        const rows = await db
          .selectFrom('messages')
          .selectAll()
          .where('id', 'in', unique.slice(start, start + IN_LIST_CHUNK))
          .execute()
        for (const row of rows) byId.set(row.id, toMessage(row))
      }
      return unique.flatMap((id) => byId.get(id) ?? [])
    },
    async listBySession(workspaceId, sessionId, request) {
      const window = pageWindow(request)
      const [rows, count] = await Promise.all([
        db
          .selectFrom('messages')
          .selectAll()
          .where('workspace_id', '=', workspaceId)
          .where('session_id', '=', sessionId)
          .orderBy('id', window.reverse ? 'desc' : 'asc')
          .limit(window.size)
          .offset(window.offset)
          .execute(),
        db
          .selectFrom('messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('workspace_id', '=', workspaceId)
          .where('session_id', '=', sessionId)
          .executeTakeFirstOrThrow(),
      ])
      return toPage(rows.map(toMessage), Number(count.n), window)
    },
    async listAfter(workspaceId, sessionId, afterId, limit = DEFAULT_LIST_AFTER_LIMIT) {
      if (!Number.isInteger(limit) || limit < 1)
        throw new StoreError('INVALID_INPUT', 'limit must be an integer ≥ 1')
      const rows = await db
        .selectFrom('messages')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('session_id', '=', sessionId)
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute()
      return rows.map(toMessage)
    },
    async updateMetadata(workspaceId, publicId, metadata) {
      const text = objectText(metadata, 'metadata')
      if (text === undefined) throw new StoreError('INVALID_INPUT', 'metadata must be a JSON object')
      return scope.write(async (tx) => {
        const result = await tx
          .updateTable('messages')
          .set({ metadata: text })
          .where('workspace_id', '=', workspaceId)
          .where('public_id', '=', publicId)
          .executeTakeFirst()
        if (Number(result.numUpdatedRows) === 0) return null
        const row = await tx
          .selectFrom('messages')
          .selectAll()
          .where('workspace_id', '=', workspaceId)
          .where('public_id', '=', publicId)
          .executeTakeFirstOrThrow()
        return toMessage(row)
      })
    },
    async count(workspaceId, filter = {}) {
      let query = db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId)
      if (filter.sessionId !== undefined) query = query.where('session_id', '=', filter.sessionId)
      return Number((await query.executeTakeFirstOrThrow()).n)
    },
    async *iterate(workspaceId) {
      let after = 0
      for (;;) {
        const page = await db
          .selectFrom('messages')
          .selectAll()
          .where('workspace_id', '=', workspaceId)
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
    async publicIdsOf(ids) {
      const wanted = [...new Set(ids.filter((id) => Number.isInteger(id)))]
      const out = new Map<number, string>()
      for (let start = 0; start < wanted.length; start += IN_LIST_CHUNK) {
        const rows = await db
          .selectFrom('messages')
          .select(['id', 'public_id'])
          .where('id', 'in', wanted.slice(start, start + IN_LIST_CHUNK))
          .execute()
        for (const row of rows) out.set(row.id, row.public_id)
      }
      return out
    },
    async locate(publicIds) {
      const out = new Map<string, { id: number; workspaceId: string }>()
      for (let start = 0; start < publicIds.length; start += IN_LIST_CHUNK) {
        const rows = await db
          .selectFrom('messages')
          .select(['id', 'public_id', 'workspace_id'])
          .where('public_id', 'in', publicIds.slice(start, start + IN_LIST_CHUNK))
          .execute()
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
