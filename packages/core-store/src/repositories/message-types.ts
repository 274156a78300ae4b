import type { MessageFilter } from '../filter/types'
import type { ImportedMessage, JsonObject, Message, NewMessage, Page, PageRequest } from './types'

export interface MessagesRepository {
  /**
   * Inserts a batch in ONE transaction, in order, creating the workspace, session, author peers and their
   * session membership when missing. All or nothing.
   */
  insertBatch(workspaceId: string, sessionId: string, messages: readonly NewMessage[]): Promise<Message[]>
  getByPublicId(workspaceId: string, publicId: string): Promise<Message | null>
  /** The workspace's messages among `ids`, in the order asked (unknown ids and other workspaces' absent). */
  getByIds(workspaceId: string, ids: readonly number[]): Promise<Message[]>
  /** Oldest first (insertion order) unless `reverse`; only the messages `filter` matches. */
  listBySession(
    workspaceId: string,
    sessionId: string,
    page?: PageRequest,
    filter?: MessageFilter,
  ): Promise<Page<Message>>
  /** Messages of a session with `id > afterId`, oldest first (the dreaming chunker's feed). */
  listAfter(workspaceId: string, sessionId: string, afterId: number, limit?: number): Promise<Message[]>
  updateMetadata(workspaceId: string, publicId: string, metadata: JsonObject): Promise<Message | null>
  /** Messages of the workspace, optionally of one session and only those with `id ≤ upToId`. */
  count(workspaceId: string, filter?: { sessionId?: string; upToId?: number }): Promise<number>
  /** Every message of the workspace in insertion order, fetched a page at a time. */
  iterate(workspaceId: string): AsyncIterable<Message>
  /** Public ids of the workspace's internal message ids (unknown ids and other workspaces' are absent). */
  publicIdsOf(workspaceId: string, ids: readonly number[]): Promise<Map<number, string>>
  /**
   * Internal id and workspace of public message ids within `workspaceId`, or in every workspace when it is
   * null (an import's check: public ids are unique across the database). Unknown ids are absent.
   */
  locate(
    workspaceId: string | null,
    publicIds: readonly string[],
  ): Promise<Map<string, { id: number; workspaceId: string }>>
  /**
   * Stores messages exactly as given (an import: public ids, times and token counts kept). Their sessions and
   * author peers must exist. Returns the internal id of each public id.
   */
  insertImported(messages: readonly ImportedMessage[]): Promise<Map<string, number>>
  /**
   * Where each of the workspace's messages among `ids` sits: its session, author and the ids of up to `span`
   * messages of the same session on either side (nearest first). Unknown ids are skipped; order unspecified.
   */
  findNeighbours(workspaceId: string, ids: readonly number[], span: number): Promise<MessageNeighbours[]>
  /** The distinct authors of the user-role messages among `ids`. */
  listUserAuthors(workspaceId: string, ids: readonly number[]): Promise<string[]>
  /** The workspace's messages among `ids` that `filter` matches, oldest first. */
  findByIds(workspaceId: string, ids: readonly number[], filter?: MessageFilter): Promise<Message[]>
  /** The newest messages first, optionally of one session and within an id window. */
  recent(workspaceId: string, query: RecentMessagesQuery): Promise<Message[]>
  /**
   * The workspace's messages with no stored vector (no `messages` vector index row), `id > afterId`, oldest
   * first, at most `limit` (default 1000): the feed of dreaming's message embedding, paged by `afterId`.
   */
  listUnembedded(workspaceId: string, page?: { afterId?: number; limit?: number }): Promise<Message[]>
  /** The workspace's messages that have a stored vector, `id > afterId`, oldest first, at most `limit` (default 1000). */
  listEmbedded(workspaceId: string, page?: { afterId?: number; limit?: number }): Promise<Message[]>
  /** Messages per session (only sessions that have some), optionally of one session. */
  countBySession(workspaceId: string, filter?: { sessionId?: string }): Promise<Map<string, number>>
}

/** A message's place in its session (see `MessagesRepository.findNeighbours`). */
export interface MessageNeighbours {
  readonly id: number
  readonly sessionId: string
  readonly peerId: string
  /** Earlier messages of the session, nearest first. */
  readonly before: readonly number[]
  /** Later messages of the session, nearest first. */
  readonly after: readonly number[]
}

export interface RecentMessagesQuery {
  readonly sessionId?: string
  /** Only messages with a smaller id. */
  readonly beforeId?: number
  /** Only messages with this id or a larger one. */
  readonly fromId?: number
  readonly limit: number
}
