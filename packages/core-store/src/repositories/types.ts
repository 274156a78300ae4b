import type { DreamRunStatus, MessageRole, PeerRole } from '../schema/tables'

export type JsonObject = Record<string, unknown>

export interface Workspace {
  readonly id: string
  readonly metadata: JsonObject
  readonly configuration: JsonObject
  readonly createdAt: string
}

export interface Peer {
  readonly workspaceId: string
  readonly id: string
  readonly role: PeerRole
  readonly metadata: JsonObject
  readonly configuration: JsonObject
  readonly createdAt: string
}

export interface Session {
  readonly workspaceId: string
  readonly id: string
  readonly isActive: boolean
  readonly metadata: JsonObject
  readonly configuration: JsonObject
  readonly summary: string | null
  /** `messages.id` of the last message the summary covers. */
  readonly summaryMessageId: number | null
  readonly summaryUpdatedAt: string | null
  readonly startedAt: string
  readonly endedAt: string | null
  readonly createdAt: string
}

export interface SessionPeer {
  readonly workspaceId: string
  readonly sessionId: string
  readonly peerId: string
  readonly configuration: JsonObject
  readonly joinedAt: string
  readonly leftAt: string | null
}

export interface Message {
  /** Internal integer id: provenance lists, FTS rowid, ordering. */
  readonly id: number
  /** Public 21-char id (the Honcho wire id). */
  readonly publicId: string
  readonly workspaceId: string
  readonly sessionId: string
  readonly peerId: string
  readonly role: MessageRole
  readonly content: string
  readonly metadata: JsonObject
  readonly tokenCount: number
  readonly createdAt: string
}

export interface NewMessage {
  readonly peerId: string
  /** Inferred from the peer's role when omitted. */
  readonly role?: MessageRole
  readonly content: string
  readonly metadata?: JsonObject
  /** ISO-8601; defaults to the store clock. Backfills keep their original times. */
  readonly createdAt?: string
  readonly tokenCount?: number
}

export interface Page<T> {
  readonly items: readonly T[]
  readonly total: number
  readonly page: number
  readonly size: number
  readonly pages: number
}

export interface PageRequest {
  /** 1-based. @default 1 */
  readonly page?: number
  /** @default 50 */
  readonly size?: number
  /** Newest first instead of oldest first. */
  readonly reverse?: boolean
}

export interface GetOrCreated<T> {
  readonly value: T
  readonly created: boolean
}

export interface DreamRun {
  readonly id: number
  readonly workspaceId: string
  readonly status: DreamRunStatus
  readonly skipReason: string | null
  readonly extractor: string | null
  readonly promptVersion: string | null
  readonly chunksCreated: number
  readonly chunksProcessed: number
  readonly edgesUpserted: number
  readonly llmCalls: number
  readonly promptTokens: number
  readonly completionTokens: number
  readonly counts: Record<string, number>
  readonly timings: Record<string, number>
  readonly errors: readonly string[]
  readonly startedAt: string
  readonly finishedAt: string | null
}

export interface DreamRunOutcome {
  readonly status: Exclude<DreamRunStatus, 'running' | 'skipped'>
  readonly chunksCreated?: number
  readonly chunksProcessed?: number
  readonly edgesUpserted?: number
  readonly llmCalls?: number
  readonly promptTokens?: number
  readonly completionTokens?: number
  readonly counts?: Record<string, number>
  readonly timings?: Record<string, number>
  readonly errors?: readonly string[]
}

export interface WorkspacesRepository {
  /** Returns the existing workspace unchanged, or creates it. */
  getOrCreate(
    id: string,
    init?: { metadata?: JsonObject; configuration?: JsonObject },
  ): Promise<GetOrCreated<Workspace>>
  get(id: string): Promise<Workspace | null>
  list(page?: PageRequest): Promise<Page<Workspace>>
  /** Metadata replaced when given; configuration shallow-merged by top-level key. Creates when missing. */
  update(id: string, patch: { metadata?: JsonObject; configuration?: JsonObject }): Promise<Workspace>
  /** Deletes the workspace and everything scoped to it. Returns false when it did not exist. */
  delete(id: string): Promise<boolean>
}

export interface PeersRepository {
  getOrCreate(
    workspaceId: string,
    id: string,
    init?: { role?: PeerRole; metadata?: JsonObject; configuration?: JsonObject },
  ): Promise<GetOrCreated<Peer>>
  get(workspaceId: string, id: string): Promise<Peer | null>
  list(workspaceId: string, page?: PageRequest): Promise<Page<Peer>>
  /** Every peer id of the workspace, in no particular order. */
  listIds(workspaceId: string): Promise<string[]>
  /** Metadata and configuration each replaced wholesale when given. Creates when missing. */
  update(
    workspaceId: string,
    id: string,
    patch: { metadata?: JsonObject; configuration?: JsonObject },
  ): Promise<Peer>
}

export interface SessionsRepository {
  getOrCreate(
    workspaceId: string,
    id: string,
    init?: { metadata?: JsonObject; configuration?: JsonObject },
  ): Promise<GetOrCreated<Session>>
  get(workspaceId: string, id: string): Promise<Session | null>
  /** Active sessions only, oldest first. */
  list(workspaceId: string, page?: PageRequest): Promise<Page<Session>>
  /** Metadata replaced when given; configuration shallow-merged. */
  update(
    workspaceId: string,
    id: string,
    patch: { metadata?: JsonObject; configuration?: JsonObject },
  ): Promise<Session>
  setActive(workspaceId: string, id: string, active: boolean): Promise<void>
  setSummary(workspaceId: string, id: string, summary: { text: string; messageId: number }): Promise<void>
  /** Adds (or re-joins) members; existing members keep their configuration unless one is given. */
  addPeers(
    workspaceId: string,
    sessionId: string,
    peers: readonly { peerId: string; configuration?: JsonObject }[],
  ): Promise<void>
  /** Marks members as left. */
  removePeers(workspaceId: string, sessionId: string, peerIds: readonly string[]): Promise<void>
  /** Active members (not left), in join order. */
  listPeers(workspaceId: string, sessionId: string): Promise<SessionPeer[]>
  getPeer(workspaceId: string, sessionId: string, peerId: string): Promise<SessionPeer | null>
  /** Ids of every session the peer has been a member of (including sessions it left), in no particular order. */
  listIdsForPeer(workspaceId: string, peerId: string): Promise<string[]>
  /** Merged into the stored configuration; membership created if absent. */
  setPeerConfiguration(
    workspaceId: string,
    sessionId: string,
    peerId: string,
    configuration: JsonObject,
  ): Promise<void>
}

export interface MessagesRepository {
  /**
   * Inserts a batch in ONE transaction, in order, creating the workspace, session, author peers and their
   * session membership when missing. All or nothing.
   */
  insertBatch(workspaceId: string, sessionId: string, messages: readonly NewMessage[]): Promise<Message[]>
  getByPublicId(workspaceId: string, publicId: string): Promise<Message | null>
  getByIds(ids: readonly number[]): Promise<Message[]>
  /** Oldest first (insertion order) unless `reverse`. */
  listBySession(workspaceId: string, sessionId: string, page?: PageRequest): Promise<Page<Message>>
  /** Messages of a session with `id > afterId`, oldest first (the dreaming chunker's feed). */
  listAfter(workspaceId: string, sessionId: string, afterId: number, limit?: number): Promise<Message[]>
  updateMetadata(workspaceId: string, publicId: string, metadata: JsonObject): Promise<Message | null>
  count(workspaceId: string, filter?: { sessionId?: string }): Promise<number>
  /** The workspace's messages among `ids`, in no particular order (unknown ids are skipped). */
  getByIdsInWorkspace(workspaceId: string, ids: readonly number[]): Promise<Message[]>
  /**
   * Where each of the workspace's messages among `ids` sits: its session, author and the ids of up to `span`
   * messages of the same session on either side (nearest first). Unknown ids are skipped; order unspecified.
   */
  findNeighbours(workspaceId: string, ids: readonly number[], span: number): Promise<MessageNeighbours[]>
  /**
   * The workspace's messages with no stored vector (no `messages` vector index row), `id > afterId`, oldest
   * first, at most `limit` (default 1000): the feed of dreaming's message embedding, paged by `afterId`.
   */
  listUnembedded(workspaceId: string, page?: { afterId?: number; limit?: number }): Promise<Message[]>
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

export interface DreamRunsRepository {
  start(workspaceId: string, init: { extractor: string; promptVersion: string }): Promise<number>
  finish(id: number, outcome: DreamRunOutcome): Promise<void>
  /** Records a run that did not start, e.g. `locked`. */
  recordSkip(workspaceId: string, reason: string): Promise<number>
  recent(workspaceId: string, limit?: number): Promise<DreamRun[]>
}
