import type { Kysely } from 'kysely'
import { createPurgesRepository, type PurgesRepository } from '../forget/purges'
import type { StoreContext } from '../kernel/context'
import type { HyMemDatabase } from '../kernel/tables'
import { type AliasesRepository, createAliasesRepository } from '../repositories/aliases'
import type { BackupRepository } from '../repositories/backup'
import { createBackupRepository } from '../repositories/backup-repository'
import { type ChunksRepository, createChunksRepository } from '../repositories/chunks'
import { type ConclusionsRepository, createConclusionsRepository } from '../repositories/conclusions'
import { createDreamRunsRepository } from '../repositories/dream-runs'
import { createEdgesRepository, type EdgesRepository } from '../repositories/edges'
import { createEntityTypesRepository, type EntityTypesRepository } from '../repositories/entity-types'
import { createEpisodesRepository, type EpisodesRepository } from '../repositories/episodes'
import { createEvidenceRepository, type EvidenceRepository } from '../repositories/evidence'
import { createFeedbackRepository, type FeedbackRepository } from '../repositories/feedback'
import {
  createGraphGenerationsRepository,
  type GraphGenerationsRepository,
} from '../repositories/graph-generations'
import { createHistoryRepository, type HistoryRepository } from '../repositories/history'
import { createLlmCacheRepository, type LlmCacheRepository } from '../repositories/llm-cache'
import { createMarkersRepository, type MarkersRepository } from '../repositories/markers'
import { createMentionsRepository, type MentionsRepository } from '../repositories/mentions'
import type { MessagesRepository } from '../repositories/message-types'
import { createMessagesRepository } from '../repositories/messages'
import { createNotesRepository, type NotesRepository } from '../repositories/notes'
import { createPassagesRepository, type PassagesRepository } from '../repositories/passages'
import { createPeerCardsRepository, type PeerCardsRepository } from '../repositories/peer-cards'
import { createPeersRepository } from '../repositories/peers'
import { createProceduresRepository, type ProceduresRepository } from '../repositories/procedures'
import { createQueueTotalsRepository, type QueueTotalsRepository } from '../repositories/queue-totals'
import { _createRepositoryScope, type RepositoryOptions } from '../repositories/scope'
import { createScopesRepository, type ScopesRepository } from '../repositories/scopes'
import { createSearchLogRepository, type SearchLogRepository } from '../repositories/search-log'
import { createSessionsRepository } from '../repositories/sessions'
import { createTopicsRepository, type TopicsRepository } from '../repositories/topics'
import type {
  DreamRunsRepository,
  PeersRepository,
  SessionsRepository,
  WorkspacesRepository,
} from '../repositories/types'
import { createWorkspacesRepository } from '../repositories/workspaces'

export type { RepositoryOptions } from '../repositories/scope'

/** The typed repositories every store scope carries. Later layers add to them. */
export interface Repositories {
  readonly workspaces: WorkspacesRepository
  readonly peers: PeersRepository
  readonly sessions: SessionsRepository
  readonly messages: MessagesRepository
  readonly passages: PassagesRepository
  readonly topics: TopicsRepository
  readonly dreamRuns: DreamRunsRepository
  readonly edges: EdgesRepository
  readonly evidence: EvidenceRepository
  readonly aliases: AliasesRepository
  readonly entityTypes: EntityTypesRepository
  readonly feedback: FeedbackRepository
  readonly chunks: ChunksRepository
  readonly mentions: MentionsRepository
  readonly episodes: EpisodesRepository
  readonly procedures: ProceduresRepository
  readonly markers: MarkersRepository
  readonly notes: NotesRepository
  readonly scopes: ScopesRepository
  readonly peerCards: PeerCardsRepository
  readonly searchLog: SearchLogRepository
  readonly llmCache: LlmCacheRepository
  readonly purges: PurgesRepository
  readonly backup: BackupRepository
  readonly history: HistoryRepository
  readonly conclusions: ConclusionsRepository
  readonly graphGenerations: GraphGenerationsRepository
  readonly queueTotals: QueueTotalsRepository
}

/**
 * Builds the repositories over one executor. Pass `inTransaction: true` for the scope of
 * `store.transaction(fn)`, so multi-row writes join that transaction instead of opening their own.
 */
export function createRepositories(
  db: Kysely<HyMemDatabase>,
  context: StoreContext,
  options: RepositoryOptions,
): Repositories {
  const scope = _createRepositoryScope(db, context, options)
  return {
    workspaces: createWorkspacesRepository(scope),
    peers: createPeersRepository(scope),
    sessions: createSessionsRepository(scope),
    messages: createMessagesRepository(scope),
    passages: createPassagesRepository(scope),
    topics: createTopicsRepository(scope),
    dreamRuns: createDreamRunsRepository(scope),
    edges: createEdgesRepository(scope),
    evidence: createEvidenceRepository(scope),
    aliases: createAliasesRepository(scope),
    entityTypes: createEntityTypesRepository(scope),
    feedback: createFeedbackRepository(scope),
    chunks: createChunksRepository(scope),
    mentions: createMentionsRepository(scope),
    episodes: createEpisodesRepository(scope),
    procedures: createProceduresRepository(scope),
    markers: createMarkersRepository(scope),
    notes: createNotesRepository(scope),
    scopes: createScopesRepository(scope),
    peerCards: createPeerCardsRepository(scope),
    searchLog: createSearchLogRepository(scope),
    llmCache: createLlmCacheRepository(scope),
    purges: createPurgesRepository(scope),
    backup: createBackupRepository(scope),
    history: createHistoryRepository(scope),
    conclusions: createConclusionsRepository(scope),
    graphGenerations: createGraphGenerationsRepository(scope),
    queueTotals: createQueueTotalsRepository(scope),
  }
}
