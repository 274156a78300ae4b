import { type Kysely, type Selectable, sql } from 'kysely'
import type { HyMemDatabase, MessageRole, MessagesTable } from '../schema/tables'
import { StoreError } from '../store/errors'
import { ISO_TIME_HINT, parseIsoTime } from '../time'
import { selectByIdsSqlite } from './by-ids'
import { isJsonObject, objectText, parseObject, requireId } from './json'
import { insertMessageBatch, type PreparedMessage } from './message-batch'
import { pageWindow, toPage } from './pagination'
import type { RepositoryScope } from './scope'
import type { Message, MessageNeighbours, MessagesRepository, NewMessage } from './types'

const MESSAGE_ROLES: readonly MessageRole[] = ['user', 'assistant', 'system', 'tool']
/** Default page of `listAfter`, so the chunker never loads a whole session at once. */
export const DEFAULT_LIST_AFTER_LIMIT = 1000
const IN_LIST_CHUNK = 500

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

function prepare(message: NewMessage, index: number): PreparedMessage {
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
      const prepared = messages.map(prepare)
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
    async getByIdsInWorkspace(workspaceId, ids) {
      requireId(workspaceId, 'workspace id')
      if (ids.length === 0) return []
      return (await selectByIdsSqlite(db, 'messages', workspaceId, ids)).map(toMessage)
    },
    async findNeighbours(workspaceId, ids, span) {
      requireId(workspaceId, 'workspace id')
      if (!Number.isInteger(span) || span < 0)
        throw new StoreError('INVALID_INPUT', 'span must be a non-negative integer')
      if (ids.length === 0) return []
      return neighboursSqlite(db, workspaceId, ids, span)
    },
    async listUnembedded(workspaceId, page = {}) {
      requireId(workspaceId, 'workspace id')
      const afterId = page.afterId ?? 0
      const limit = page.limit ?? DEFAULT_LIST_AFTER_LIMIT
      if (!Number.isSafeInteger(afterId) || afterId < 0)
        throw new StoreError('INVALID_INPUT', 'afterId must be an integer ≥ 0')
      if (!Number.isSafeInteger(limit) || limit < 1)
        throw new StoreError('INVALID_INPUT', 'limit must be a positive integer')
      const rows = await db
        .selectFrom('messages')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', '>', afterId)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('message_embeddings')
                .select('message_id')
                .whereRef('message_embeddings.message_id', '=', 'messages.id'),
            ),
          ),
        )
        .orderBy('id')
        .limit(limit)
        .execute()
      return rows.map(toMessage)
    },
  }
}

/**
 * One index seek per neighbour (`messages_by_session`); `+m.workspace_id` keeps SQLite on the primary key.
 */
async function neighboursSqlite(
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  ids: readonly number[],
  span: number,
): Promise<MessageNeighbours[]> {
  const nearby = (direction: 'before' | 'after', offset: number) =>
    direction === 'before'
      ? sql`(SELECT p.id FROM messages p WHERE p.workspace_id = m.workspace_id AND p.session_id = m.session_id AND p.id < m.id ORDER BY p.id DESC LIMIT 1 OFFSET ${offset})`
      : sql`(SELECT n.id FROM messages n WHERE n.workspace_id = m.workspace_id AND n.session_id = m.session_id AND n.id > m.id ORDER BY n.id LIMIT 1 OFFSET ${offset})`
  const columns = Array.from({ length: span }, (_, offset) => [
    sql`${nearby('before', offset)} AS ${sql.ref(`b${offset}`)}`,
    sql`${nearby('after', offset)} AS ${sql.ref(`a${offset}`)}`,
  ]).flat()
  const { rows } = await sql<Record<string, number | string | null>>`
    SELECT m.id, m.session_id, m.peer_id${columns.length > 0 ? sql`, ${sql.join(columns)}` : sql``}
    FROM messages m
    WHERE m.id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND +m.workspace_id = ${workspaceId}`.execute(
    db,
  )
  return rows.map((row) => {
    const before: number[] = []
    const after: number[] = []
    for (let offset = 0; offset < span; offset++) {
      const earlier = row[`b${offset}`]
      const later = row[`a${offset}`]
      if (earlier !== null && earlier !== undefined) before.push(Number(earlier))
      if (later !== null && later !== undefined) after.push(Number(later))
    }
    return {
      id: Number(row.id),
      sessionId: String(row.session_id),
      peerId: String(row.peer_id),
      before,
      after,
    }
  })
}
