import type { PeerFilter, SessionFilter, WorkspaceFilter } from '../filter/types'
import type { DreamRunStatus, MessageRole, PeerRole } from '../kernel/tables'

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
  /** Counted with the store's token counter (`countTokens`, o200k) when omitted. */
  readonly tokenCount?: number
}

/** A message as exported: everything but the internal id. */
export type ImportedMessage = Omit<Message, 'id'>

/** A session with what an export needs besides: its chunking position and every member, left ones too. */
export interface SessionSnapshot extends Session {
  /** `messages.id` of the last message dreaming chunked (0: none). */
  readonly lastChunkedMessageId: number
  /** Members in join order. */
  readonly members: readonly SessionPeer[]
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

export interface SessionListQuery {
  readonly filter?: SessionFilter
  /** Only sessions this peer is or was a member of. */
  readonly memberId?: string
  /** Also list deleted (inactive) sessions. @default false */
  readonly includeInactive?: boolean
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
  /** Oldest first (creation time, then id) unless `reverse`; only the workspaces `filter` matches. */
  list(page?: PageRequest, filter?: WorkspaceFilter): Promise<Page<Workspace>>
  /** Metadata replaced when given; configuration shallow-merged by top-level key. Creates when missing. */
  update(id: string, patch: { metadata?: JsonObject; configuration?: JsonObject }): Promise<Workspace>
  /** Deletes the workspace and everything scoped to it. Returns false when it did not exist. */
  delete(id: string): Promise<boolean>
  /** Every workspace, by id. */
  listAll(): Promise<Workspace[]>
  /** Stores a workspace exactly as given (an import); false when the id exists, which is left untouched. */
  insertIfAbsent(workspace: Workspace): Promise<boolean>
  /** Row counts of the workspace per stored kind of thing, keyed by table name (for stats). */
  counts(id: string): Promise<Record<string, number>>
}

export interface PeersRepository {
  getOrCreate(
    workspaceId: string,
    id: string,
    init?: { role?: PeerRole; metadata?: JsonObject; configuration?: JsonObject },
  ): Promise<GetOrCreated<Peer>>
  get(workspaceId: string, id: string): Promise<Peer | null>
  /** Oldest first (creation time, then id) unless `reverse`; only the peers `filter` matches. */
  list(workspaceId: string, page?: PageRequest, filter?: PeerFilter): Promise<Page<Peer>>
  /** Metadata and configuration each replaced wholesale when given. Creates when missing. */
  update(
    workspaceId: string,
    id: string,
    patch: { metadata?: JsonObject; configuration?: JsonObject },
  ): Promise<Peer>
  /** Every peer of the workspace, by id. */
  listAll(workspaceId: string): Promise<Peer[]>
  /**
   * Stores a peer as given (an import); omitted role, metadata and configuration take the column defaults.
   * False when the peer exists, which is left untouched.
   */
  insertIfAbsent(
    peer: Pick<Peer, 'workspaceId' | 'id' | 'createdAt'> &
      Partial<Pick<Peer, 'role' | 'metadata' | 'configuration'>>,
  ): Promise<boolean>
}

export interface SessionsRepository {
  getOrCreate(
    workspaceId: string,
    id: string,
    init?: { metadata?: JsonObject; configuration?: JsonObject },
  ): Promise<GetOrCreated<Session>>
  get(workspaceId: string, id: string): Promise<Session | null>
  /** Active sessions (unless `includeInactive`), oldest first (creation time, then id) unless `reverse`. */
  list(workspaceId: string, page?: PageRequest, query?: SessionListQuery): Promise<Page<Session>>
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
  /** The peers of the active members, in join order unless `reverse`. */
  listMemberPeers(workspaceId: string, sessionId: string, page?: PageRequest): Promise<Page<Peer>>
  /** Merged into the stored configuration; membership created if absent. */
  setPeerConfiguration(
    workspaceId: string,
    sessionId: string,
    peerId: string,
    configuration: JsonObject,
  ): Promise<void>
  /** Every session of the workspace (active or not) by id, with its chunking position and every member. */
  listAll(workspaceId: string): Promise<SessionSnapshot[]>
  /**
   * Stores a session as given (an import; the workspace must exist), with no summary message and nothing
   * chunked yet. False when it exists, which is left untouched.
   */
  insertIfAbsent(session: Omit<Session, 'summaryMessageId'>): Promise<boolean>
  /** Stores a membership as given (an import); false when it exists, which is left untouched. */
  insertPeerIfAbsent(member: SessionPeer): Promise<boolean>
  /** Points a session at the last message its summary covers and the last message dreaming chunked. */
  setMessagePointers(
    workspaceId: string,
    id: string,
    pointers: { summaryMessageId: number | null; lastChunkedMessageId: number },
  ): Promise<void>
  /** Messages not chunked yet (after each session's chunking position), per session, by session id. */
  unchunkedCounts(workspaceId: string): Promise<{ sessionId: string; messages: number }[]>
  /**
   * Each session's chunking watermark (the last `messages.id` dreaming chunked; 0: none), oldest session
   * first; only the session `sessionId` when given.
   */
  listChunkWatermarks(
    workspaceId: string,
    sessionId?: string,
  ): Promise<{ sessionId: string; lastChunkedMessageId: number }[]>
  /**
   * Moves a session's chunking watermark from `from` to `to`. False (and nothing written) when the watermark
   * is no longer `from`: another connection chunked the span meanwhile.
   */
  advanceChunkWatermark(workspaceId: string, sessionId: string, from: number, to: number): Promise<boolean>
  /**
   * Sessions whose chunks processed under `promptVersion` reach past the message their summary covers, with
   * the last message those chunks cover, by session id.
   */
  listSummaryBacklog(
    workspaceId: string,
    promptVersion: string,
  ): Promise<{ sessionId: string; lastMessageId: number }[]>
  /**
   * Records that the summary is up to date with `messageId` without changing its text (a rejected summary is
   * not asked for again).
   */
  markSummarized(workspaceId: string, id: string, messageId: number): Promise<void>
}

export interface DreamRunsRepository {
  start(workspaceId: string, init: { extractor: string; promptVersion: string }): Promise<number>
  /** Finishes the workspace's run `id` (`NOT_FOUND` when the workspace has no such run). */
  finish(workspaceId: string, id: number, outcome: DreamRunOutcome): Promise<void>
  /** Records a run that did not start, e.g. `locked`. */
  recordSkip(workspaceId: string, reason: string): Promise<number>
  recent(workspaceId: string, limit?: number): Promise<DreamRun[]>
  /** Runs still marked `running` (a crashed process leaves them so), oldest first. */
  listRunning(workspaceId: string): Promise<DreamRun[]>
}
