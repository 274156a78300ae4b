import type { Kysely } from 'kysely'
import type { HyMemDatabase } from '../schema/tables'
import type { StoreContext } from '../store/context'
import { type AliasesRepository, createAliasesRepository } from './aliases'
import { type BackupRepository, createBackupRepository } from './backup'
import { type ChunksRepository, createChunksRepository } from './chunks'
import { type ConclusionsRepository, createConclusionsRepository } from './conclusions'
import { createDreamRunsRepository } from './dream-runs'
import { createEdgesRepository, type EdgesRepository } from './edges'
import { createEntityTypesRepository, type EntityTypesRepository } from './entity-types'
import { createEpisodesRepository, type EpisodesRepository } from './episodes'
import { createEvidenceRepository, type EvidenceRepository } from './evidence'
import { createFeedbackRepository, type FeedbackRepository } from './feedback'
import { createGraphGenerationsRepository, type GraphGenerationsRepository } from './graph-generations'
import { createHistoryRepository, type HistoryRepository } from './history'
import { createLlmCacheRepository, type LlmCacheRepository } from './llm-cache'
import { createMarkersRepository, type MarkersRepository } from './markers'
import { createMentionsRepository, type MentionsRepository } from './mentions'
import type { MessagesRepository } from './message-types'
import { createMessagesRepository } from './messages'
import { createNotesRepository, type NotesRepository } from './notes'
import { createPassagesRepository, type PassagesRepository } from './passages'
import { createPeerCardsRepository, type PeerCardsRepository } from './peer-cards'
import { createPeersRepository } from './peers'
import { createProceduresRepository, type ProceduresRepository } from './procedures'
import { createPurgesRepository, type PurgesRepository } from './purges'
import { createQueueTotalsRepository, type QueueTotalsRepository } from './queue-totals'
import { _createRepositoryScope, type RepositoryOptions } from './scope'
import { createScopesRepository, type ScopesRepository } from './scopes'
import { createSearchLogRepository, type SearchLogRepository } from './search-log'
import { createSessionsRepository } from './sessions'
import type { DreamRunsRepository, PeersRepository, SessionsRepository, WorkspacesRepository } from './types'
import { createWorkspacesRepository } from './workspaces'

export type { RepositoryOptions } from './scope'

/** The typed repositories every store scope carries. Later layers add to them. */
export interface Repositories {
  readonly workspaces: WorkspacesRepository
  readonly peers: PeersRepository
  readonly sessions: SessionsRepository
  readonly messages: MessagesRepository
  readonly passages: PassagesRepository
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
