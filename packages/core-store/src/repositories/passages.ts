import { sql } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { PassagesTable } from '../kernel/passage-tables'
import { selectByIds } from './by-ids'
import { requireIntegers } from './checks'
import { requireId } from './json'
import type { RepositoryScope } from './scope'
import { selectInWorkspace } from './workspace-rows'

/** A stretch of one long message, indexed on its own (full text and vectors). */
export interface Passage {
  readonly id: number
  readonly messageId: number
  readonly workspaceId: string
  readonly sessionId: string
  readonly peerId: string
  /** 0, 1, … in the order of the message's text. */
  readonly ordinal: number
  /** `[start, end)` in the message's content (UTF-16 code units, as `String#slice`). */
  readonly start: number
  readonly end: number
  readonly text: string
}

/** Where one passage lies in its message's content. */
export interface PassageRange {
  readonly start: number
  readonly end: number
}

/** The passages a message is split into (an empty list: the message is not split). */
export interface MessagePassages {
  readonly messageId: number
  readonly ranges: readonly PassageRange[]
}

/** A long message not split into passages yet. */
export interface UnsplitMessage {
  readonly id: number
  readonly content: string
}

export interface PassagePage {
  /** Only rows with an id above this one. @default 0 */
  readonly afterId?: number
  /** @default 1000 */
  readonly limit?: number
}

/** Passages inside long messages (`passages`, migration 10). */
export interface PassagesRepository {
  /**
   * Replaces the passages of each message, in one transaction: the text of each is the message's content
   * over its range. Ranges must lie inside the content, in order, without overlap. Messages of another
   * workspace, or missing, are `NOT_FOUND`.
   */
  write(workspaceId: string, messages: readonly MessagePassages[]): Promise<void>
  /** The workspace's messages of at least `minChars` characters without passages, in id order. */
  listUnsplit(workspaceId: string, minChars: number, page?: PassagePage): Promise<UnsplitMessage[]>
  /** The workspace's passages without a vector, in id order. */
  listUnembedded(workspaceId: string, page?: PassagePage): Promise<Passage[]>
  /** The workspace's passages of `ids`, in id order (unknown ids are absent). */
  getByIds(workspaceId: string, ids: readonly number[]): Promise<Passage[]>
  /** The passages of the workspace's messages `messageIds`, by message then ordinal. */
  listForMessages(workspaceId: string, messageIds: readonly number[]): Promise<Passage[]>
}

const DEFAULT_PAGE = 1000

export function createPassagesRepository(scope: RepositoryScope): PassagesRepository {
  const { db } = scope
  return {
    async write(workspaceId, messages) {
      requireId(workspaceId, 'workspace id')
      if (!Array.isArray(messages)) throw new StoreError('INVALID_INPUT', 'messages must be a list')
      const ids = messages.map((entry) => entry?.messageId)
      requireIntegers(ids, 'message ids')
      for (const entry of messages) checkRanges(entry.ranges, entry.messageId)
      if (messages.length === 0) return
      await scope.write(async (tx) => {
        const found = new Map(
          (await selectByIds(scope.engine, tx, 'messages', workspaceId, ids)).map((row) => [
            Number(row.id),
            row,
          ]),
        )
        for (const entry of messages) {
          const message = found.get(entry.messageId)
          if (!message)
            throw new StoreError(
              'NOT_FOUND',
              `message ${entry.messageId} not found in workspace ${workspaceId}`,
            )
          const last = entry.ranges[entry.ranges.length - 1]
          if (last && last.end > message.content.length)
            throw new StoreError(
              'INVALID_INPUT',
              `passage range ends at ${last.end}, past the ${message.content.length} characters of message ${entry.messageId}`,
            )
          await tx.deleteFrom('passages').where('message_id', '=', entry.messageId).execute()
          if (entry.ranges.length === 0) continue
          await tx
            .insertInto('passages')
            .values(
              entry.ranges.map((range: PassageRange, ordinal: number) => ({
                message_id: entry.messageId,
                workspace_id: workspaceId,
                session_id: message.session_id,
                peer_id: message.peer_id,
                ordinal,
                start_char: range.start,
                end_char: range.end,
                text: message.content.slice(range.start, range.end),
              })),
            )
            .execute()
        }
      })
    },
    async listUnsplit(workspaceId, minChars, page = {}) {
      requireId(workspaceId, 'workspace id')
      if (!Number.isSafeInteger(minChars) || minChars < 1)
        throw new StoreError('INVALID_INPUT', 'minChars must be a positive integer')
      const { afterId, limit } = checkPage(page)
      const rows = await db
        .selectFrom('messages')
        .select(['id', 'content'])
        .where('workspace_id', '=', workspaceId)
        .where('id', '>', afterId)
        .where(sql<boolean>`length(content) >= ${minChars}`)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(selectFrom('passages').select('id').whereRef('passages.message_id', '=', 'messages.id')),
          ),
        )
        .orderBy('id')
        .limit(limit)
        .execute()
      return rows.map((row) => ({ id: Number(row.id), content: row.content }))
    },
    async listUnembedded(workspaceId, page = {}) {
      requireId(workspaceId, 'workspace id')
      const { afterId, limit } = checkPage(page)
      const rows = await selectInWorkspace(db, 'passages', workspaceId)
        .where('id', '>', afterId)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('passage_embeddings')
                .select('passage_id')
                .whereRef('passage_embeddings.passage_id', '=', 'passages.id'),
            ),
          ),
        )
        .orderBy('id')
        .limit(limit)
        .execute()
      return rows.map(toPassage)
    },
    async getByIds(workspaceId, ids) {
      requireId(workspaceId, 'workspace id')
      requireIntegers(ids, 'passage ids')
      if (ids.length === 0) return []
      return (await selectByIds(scope.engine, db, 'passages', workspaceId, ids))
        .map(toPassage)
        .sort((a, b) => a.id - b.id)
    },
    async listForMessages(workspaceId, messageIds) {
      requireId(workspaceId, 'workspace id')
      requireIntegers(messageIds, 'message ids')
      if (messageIds.length === 0) return []
      const rows = await selectInWorkspace(db, 'passages', workspaceId)
        .where('message_id', 'in', [...new Set(messageIds)])
        .orderBy('message_id')
        .orderBy('ordinal')
        .execute()
      return rows.map(toPassage)
    },
  }
}

function checkRanges(ranges: readonly PassageRange[], messageId: number): void {
  if (!Array.isArray(ranges))
    throw new StoreError('INVALID_INPUT', `ranges of message ${messageId} must be a list`)
  let end = 0
  for (const range of ranges) {
    const ok =
      Number.isSafeInteger(range?.start) &&
      Number.isSafeInteger(range?.end) &&
      range.start >= end &&
      range.end > range.start
    if (!ok)
      throw new StoreError(
        'INVALID_INPUT',
        `passage ranges of message ${messageId} must be integer [start, end) stretches in order, without overlap`,
      )
    end = range.end
  }
}

function checkPage(page: PassagePage): { afterId: number; limit: number } {
  const afterId = page.afterId ?? 0
  const limit = page.limit ?? DEFAULT_PAGE
  if (!Number.isSafeInteger(afterId) || afterId < 0)
    throw new StoreError('INVALID_INPUT', 'afterId must be an integer ≥ 0')
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new StoreError('INVALID_INPUT', 'limit must be a positive integer')
  return { afterId, limit }
}

function toPassage(
  row: {
    readonly [K in keyof PassagesTable]: K extends 'id' ? number : PassagesTable[K]
  },
): Passage {
  return {
    id: Number(row.id),
    messageId: Number(row.message_id),
    workspaceId: row.workspace_id,
    sessionId: row.session_id,
    peerId: row.peer_id,
    ordinal: row.ordinal,
    start: row.start_char,
    end: row.end_char,
    text: row.text,
  }
}
