import type { Session, StoreScope } from '@hymem/core-store'

type Repository<K extends keyof StoreScope> = StoreScope[K]

/** Workspaces: their metadata and configuration. */
export type WorkspaceRecords = Pick<Repository<'workspaces'>, 'get' | 'getOrCreate' | 'list' | 'update'>

/** Sessions, their members and the members' per-session configuration. */
export type SessionRecords = Pick<
  Repository<'sessions'>,
  | 'get'
  | 'getOrCreate'
  | 'update'
  | 'list'
  | 'listPeers'
  | 'listMemberPeers'
  | 'getPeer'
  | 'addPeers'
  | 'removePeers'
  | 'setPeerConfiguration'
  | 'listIdsForPeer'
  | 'listChunkWatermarks'
>

/** Peers, and the profile entries dreaming found about them. */
export type PeerRecords = Pick<Repository<'peers'>, 'get' | 'getOrCreate' | 'update' | 'list' | 'listAll'> &
  Pick<Repository<'markers'>, 'profileEntries'>

/** Hand-written peer cards (what an observer keeps about a peer). */
export type PeerCardRecords = Pick<Repository<'peerCards'>, 'get' | 'set'>

/** Named groups of sessions. */
export type ScopeRecords = Pick<
  Repository<'scopes'>,
  'get' | 'getOrCreate' | 'list' | 'addSessions' | 'removeSession' | 'listSessions' | 'members' | 'sessionIds'
>

/** Options of {@link MessageRecords.searchText}. */
export interface MessageTextSearch {
  readonly limit: number
  readonly sessionIds?: readonly string[]
  readonly peerId?: string
}

/** Logged messages (logging itself is `log` / `logMessages`). */
export type MessageRecords = Pick<
  Repository<'messages'>,
  | 'getByPublicId'
  | 'getByIds'
  | 'findByIds'
  | 'listBySession'
  | 'recent'
  | 'count'
  | 'countBySession'
  | 'updateMetadata'
> & {
  /** Full-text search over a workspace's messages: message ids (as strings) ranked by relevance. */
  searchText(
    workspaceId: string,
    query: string,
    options: MessageTextSearch,
  ): ReturnType<Repository<'fullText'>['search']>
}

/** Conclusions: explicit notes and graph facts as one list (ids `kg-<edge id>` for facts). */
export type ConclusionRecords = Pick<Repository<'conclusions'>, 'find' | 'list'>

/**
 * The records a server keeps beside the memory — workspaces, sessions, peers, cards, scopes, messages,
 * conclusions — as typed reads and writes. These name the workspace first: a server serves many, where the
 * facade's verbs default to `workspaceId`.
 */
export interface HyMemRecords {
  readonly workspaces: WorkspaceRecords
  readonly sessions: SessionRecords
  readonly peers: PeerRecords
  readonly peerCards: PeerCardRecords
  readonly scopes: ScopeRecords
  readonly messages: MessageRecords
  readonly conclusions: ConclusionRecords
}

/** `memory.sessions`: the session records plus copying a session. */
export type HyMemSessions = SessionRecords & {
  /**
   * Copies a session (metadata, configuration, members and its messages up to and including the internal
   * message id `upToId`, all of them by default) into a new session `cloneId`, in one transaction.
   */
  clone(
    workspaceId: string,
    sourceId: string,
    cloneId: string,
    options?: { readonly upToId?: number },
  ): Promise<Session>
}
