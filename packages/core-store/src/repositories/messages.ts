import { _filterFor, type FilterTarget, MESSAGE_FILTER_FIELDS } from '../filter'
import { loadTokenCounter, type TokenCounter } from '../kernel/count-tokens'
import { StoreError } from '../kernel/errors'
import { ISO_TIME_HINT, parseIsoTime } from '../kernel/iso-time'
import { selectByIds } from './by-ids'
import { requireInteger, requireIntegers } from './checks'
import { isJsonObject, objectText, parseObject, requireId } from './json'
import { insertMessageBatch, type PreparedMessage } from './message-batch'
import { selectNeighbours } from './message-neighbours'
import { createMessageTransfer } from './message-transfer'
import type { MessagesRepository, RecentMessagesQuery } from './message-types'
import { MESSAGE_ROLES, toMessage } from './message-values'
import { listPage } from './pagination'
import type { RepositoryScope } from './scope'
import type { Message, NewMessage } from './types'
import { selectInWorkspace } from './workspace-rows'

/** Default page of `listAfter`, so the chunker never loads a whole session at once. */
export const DEFAULT_LIST_AFTER_LIMIT = 1000

const MESSAGE_TARGET: FilterTarget<keyof typeof MESSAGE_FILTER_FIELDS> = {
  name: 'messages',
  kinds: MESSAGE_FILTER_FIELDS,
  columns: {
    workspaceId: 'messages.workspace_id',
    sessionId: 'messages.session_id',
    peerId: 'messages.peer_id',
    tokenCount: 'messages.token_count',
    createdAt: 'messages.created_at',
    metadata: 'messages.metadata',
  },
  messageColumns: {
    workspaceId: 'messages.workspace_id',
    sessionId: 'messages.session_id',
    createdAt: 'messages.created_at',
  },
}

/** Validates one message of a batch (`index` names it in errors); `count` gives the tokens the caller did not. */
export function prepareMessage(message: NewMessage, index: number, count: TokenCounter): PreparedMessage {
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
  const tokenCount = message.tokenCount ?? count(message.content)
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

/** Longest stretch of token counting before the event loop gets a turn (a 2 MiB batch counts for ~50 ms). */
const SLICE_MS = 8

/** Prepares a batch, yielding to the event loop between messages once a slice is used up. */
/** Checks the arguments of `insertBatch` and validates every message, in slices that let other work run. */
export async function prepareBatch(
  workspaceId: string,
  sessionId: string,
  messages: readonly NewMessage[],
): Promise<PreparedMessage[]> {
  requireId(workspaceId, 'workspace id')
  requireId(sessionId, 'session id')
  if (!Array.isArray(messages)) throw new StoreError('INVALID_INPUT', 'messages must be an array')
  return prepareInSlices(messages, await loadTokenCounter())
}

async function prepareInSlices(
  messages: readonly NewMessage[],
  count: TokenCounter,
): Promise<PreparedMessage[]> {
  const prepared: PreparedMessage[] = []
  let sliceStart = performance.now()
  for (const [index, message] of messages.entries()) {
    if (performance.now() - sliceStart >= SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve))
      sliceStart = performance.now()
    }
    prepared.push(prepareMessage(message, index, count))
  }
  return prepared
}

function requireRecentQuery(query: RecentMessagesQuery): RecentMessagesQuery {
  if (!isJsonObject(query)) throw new StoreError('INVALID_INPUT', 'the query must be an object')
  if (query.sessionId !== undefined) requireId(query.sessionId, 'session id')
  if (query.beforeId !== undefined) requireInteger(query.beforeId, 'beforeId')
  if (query.fromId !== undefined) requireInteger(query.fromId, 'fromId')
  if (!Number.isInteger(query.limit) || query.limit < 1)
    throw new StoreError('INVALID_INPUT', 'limit must be an integer ≥ 1')
  return query
}

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id

export function createMessagesRepository(scope: RepositoryScope): MessagesRepository {
  const { db, context } = scope

  return {
    async insertBatch(workspaceId, sessionId, messages) {
      const prepared = await prepareBatch(workspaceId, sessionId, messages)
      if (prepared.length === 0) return []
      return scope.write((tx) => insertMessageBatch(tx, context, workspaceId, sessionId, prepared))
    },
    async getByPublicId(workspaceId, publicId) {
      const row = await selectInWorkspace(db, 'messages', workspaceId)
        .where('public_id', '=', publicId)
        .executeTakeFirst()
      return row ? toMessage(row) : null
    },
    async getByIds(workspaceId, ids) {
      requireId(workspaceId, 'workspace id')
      const unique = [...new Set(ids)]
      if (unique.length === 0) return []
      const rows = await selectByIds(scope.engine, db, 'messages', workspaceId, unique)
      const byId = new Map(rows.map((row) => [row.id, toMessage(row)]))
      return unique.flatMap((id) => byId.get(id) ?? [])
    },
    async listBySession(workspaceId, sessionId, request, filter) {
      const matching = db
        .selectFrom('messages')
        .where('workspace_id', '=', workspaceId)
        .where('session_id', '=', sessionId)
        .where(_filterFor(scope.engine, MESSAGE_TARGET, filter))
      return listPage(
        request,
        matching,
        (rows, direction) => rows.selectAll().orderBy('id', direction),
        toMessage,
      )
    },
    async listAfter(workspaceId, sessionId, afterId, limit = DEFAULT_LIST_AFTER_LIMIT) {
      if (!Number.isInteger(limit) || limit < 1)
        throw new StoreError('INVALID_INPUT', 'limit must be an integer ≥ 1')
      const rows = await selectInWorkspace(db, 'messages', workspaceId)
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
        const row = await selectInWorkspace(tx, 'messages', workspaceId)
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
      if (filter.upToId !== undefined) {
        if (!Number.isInteger(filter.upToId))
          throw new StoreError('INVALID_INPUT', 'upToId must be an integer message id')
        query = query.where('id', '<=', filter.upToId)
      }
      return Number((await query.executeTakeFirstOrThrow()).n)
    },
    ...createMessageTransfer(scope),
    async findNeighbours(workspaceId, ids, span) {
      requireId(workspaceId, 'workspace id')
      if (!Number.isInteger(span) || span < 0)
        throw new StoreError('INVALID_INPUT', 'span must be a non-negative integer')
      if (ids.length === 0) return []
      return selectNeighbours(scope.engine, db, workspaceId, ids, span)
    },
    async listUserAuthors(workspaceId, ids) {
      requireId(workspaceId, 'workspace id')
      requireIntegers(ids, 'ids')
      if (ids.length === 0) return []
      const rows = await db
        .selectFrom('messages')
        .select('peer_id')
        .distinct()
        .where('id', 'in', ids)
        .where('role', '=', 'user')
        .where('workspace_id', '=', workspaceId)
        .execute()
      return rows.map((row) => row.peer_id)
    },
    async findByIds(workspaceId, ids, filter) {
      requireId(workspaceId, 'workspace id')
      requireIntegers(ids, 'ids')
      if (ids.length === 0) return []
      if (filter === undefined)
        return (await selectByIds(scope.engine, db, 'messages', workspaceId, ids)).map(toMessage).sort(byId)
      const condition = _filterFor(scope.engine, MESSAGE_TARGET, filter)
      const unique = [...new Set(ids)]
      if (unique.length === 0) return []
      const rows = await db
        .selectFrom('messages')
        .selectAll()
        .where(scope.engine.inIdList('id', unique))
        .where(scope.engine.notIndexed('workspace_id'), '=', workspaceId)
        .where(condition)
        .execute()
      return rows.map(toMessage).sort(byId)
    },
    async recent(workspaceId, query) {
      requireId(workspaceId, 'workspace id')
      const { sessionId, beforeId, fromId, limit } = requireRecentQuery(query)
      const rows = await selectInWorkspace(db, 'messages', workspaceId)
        .$if(sessionId !== undefined, (q) => q.where('session_id', '=', sessionId ?? ''))
        .$if(beforeId !== undefined, (q) => q.where('id', '<', beforeId ?? 0))
        .$if(fromId !== undefined, (q) => q.where('id', '>=', fromId ?? 0))
        .orderBy('id', 'desc')
        .limit(limit)
        .execute()
      return rows.map(toMessage)
    },
    async countBySession(workspaceId, filter = {}) {
      const rows = await db
        .selectFrom('messages')
        .select(['session_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('workspace_id', '=', workspaceId)
        .$if(filter.sessionId !== undefined, (q) => q.where('session_id', '=', filter.sessionId ?? ''))
        .groupBy('session_id')
        .execute()
      return new Map(rows.map((row) => [row.session_id, Number(row.n)]))
    },
    listUnembedded: (workspaceId, page = {}) => listByEmbedding(db, workspaceId, page, false),
    listEmbedded: (workspaceId, page = {}) => listByEmbedding(db, workspaceId, page, true),
  }
}

/** A workspace's messages after `page.afterId`, in id order: those with a vector, or those without one. */
async function listByEmbedding(
  db: RepositoryScope['db'],
  workspaceId: string,
  page: { readonly afterId?: number; readonly limit?: number },
  embedded: boolean,
): Promise<Message[]> {
  requireId(workspaceId, 'workspace id')
  const afterId = page.afterId ?? 0
  const limit = page.limit ?? DEFAULT_LIST_AFTER_LIMIT
  if (!Number.isSafeInteger(afterId) || afterId < 0)
    throw new StoreError('INVALID_INPUT', 'afterId must be an integer ≥ 0')
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new StoreError('INVALID_INPUT', 'limit must be a positive integer')
  const rows = await selectInWorkspace(db, 'messages', workspaceId)
    .where('id', '>', afterId)
    .where(({ not, exists, selectFrom }) => {
      const hasVector = exists(
        selectFrom('message_embeddings')
          .select('message_id')
          .whereRef('message_embeddings.message_id', '=', 'messages.id'),
      )
      return embedded ? hasVector : not(hasVector)
    })
    .orderBy('id')
    .limit(limit)
    .execute()
  return rows.map(toMessage)
}
