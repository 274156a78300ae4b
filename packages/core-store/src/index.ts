/**
 * `@hymem/core-store`: HyMem's storage on SQLite (the default) or PostgreSQL with pgvector — the `Store`
 * contract and its typed repositories, full-text and vector search, canonical entity names, forgetting,
 * managed Markdown sections and the dream lock. PostgreSQL opens through `@hymem/core-store/postgres`; the
 * raw SQLite schema and FTS functions that benchmarks compare against through `@hymem/core-store/sqlite`.
 *
 * @example
 * import { openStore } from '@hymem/core-store'
 * const store = openStore({ path: `${process.env.HOME}/.hermes/hymem.sqlite` })
 * console.log(store.info().schemaVersion)
 * await store.close()
 *
 * @module
 */
export type {
  AddAliasInput,
  CanonicalColumn,
  CanonicalDrift,
  CanonicalDriftOptions,
  CanonicalDriftRepair,
  MergeCanonicalInput,
  MergeCanonicalReport,
  ResolveAliasInput,
} from './canonical'
export {
  addAlias,
  edgeConfidence,
  findCanonicalDrift,
  mergeCanonical,
  normalize,
  repairCanonicalDrift,
  resolveAlias,
} from './canonical'
export type { RunLockHolder, RunLockTakeoverReason } from './engine/run-lock-types'
export { openStore } from './engine/sqlite/open-store'
export { DEFAULT_LOCK_STALE_AFTER_MS, isProcessAlive } from './engine/sqlite/run-lock'
export { SCHEMA_VERSION } from './engine/sqlite/schema/migrations'
export { sqliteFilesOf } from './engine/sqlite/sqlite-files'
export type { ThreadWriteLock, ThreadWriteLockOptions } from './engine/sqlite/thread-write-lock'
export {
  createThreadWriteLock,
  releaseThreadWriteLockOf,
  threadWriteLockTag,
} from './engine/sqlite/thread-write-lock'
export type { OpenStoreOptions, SqliteStore } from './engine/sqlite/types'
export { MAX_NEAREST_K } from './engine/sqlite/vector-index'
export type { StoreHeldRunLock, StoreRunLock, StoreRunLockAcquireResult } from './engine/store-run-lock'
export type { LoosePermission } from './files'
export { findLoosePermissions, PRIVATE_FILE_MODE } from './files'
export type {
  ConclusionFilter,
  ConclusionFilterField,
  Filter,
  FilterFieldKind,
  FilterValue,
  JsonFilter,
  JsonScalar,
  MessageFilter,
  MessageFilterField,
  PeerFilter,
  PeerFilterField,
  SessionFilter,
  SessionFilterField,
  WorkspaceFilter,
  WorkspaceFilterField,
} from './filter'
export {
  CONCLUSION_FILTER_FIELDS,
  checkFilterLimits,
  FILTER_LIMITS,
  MESSAGE_FILTER_FIELDS,
  PEER_FILTER_FIELDS,
  SESSION_FILTER_FIELDS,
  WORKSPACE_FILTER_FIELDS,
} from './filter'
export type { ForgetTarget, Purge, PurgeCompaction, PurgeCounts, PurgesRepository } from './forget/purges'
export type { TokenCounter } from './kernel/count-tokens'
export { loadTokenCounter } from './kernel/count-tokens'
export type { StoreErrorCode } from './kernel/errors'
export { CodedError, StoreError } from './kernel/errors'
export { randomId } from './kernel/ids'
export { ISO_TIME_HINT, isoTimeSchema, parseIsoTime } from './kernel/iso-time'
export type * from './kernel/tables'
export { readManagedFile, readOutsideSection, readSection, sectionMarkers, writeSection } from './markdown'
export type { Alias, AliasesRepository } from './repositories/aliases'
export type {
  BackupChunk,
  BackupDreamRun,
  BackupEntityType,
  BackupEpisode,
  BackupFeedback,
  BackupMarker,
  BackupPeerCard,
  BackupProcedure,
  BackupRepository,
  BackupScope,
  BackupVector,
} from './repositories/backup'
export type { Chunk, ChunkProcessing, ChunksRepository, NewChunk } from './repositories/chunks'
export type {
  Conclusion,
  ConclusionOrder,
  ConclusionQuery,
  ConclusionsRepository,
} from './repositories/conclusions'
export { conclusionIdOfEdge, edgeIdOfConclusion } from './repositories/conclusions'
export type { EdgeGraphFilter, EdgeGraphPage, EdgeHistoryDay } from './repositories/edge-graph'
export { MAX_GRAPH_LIMIT } from './repositories/edge-graph'
export type {
  ConflictRules,
  Edge,
  EdgeConflict,
  EdgeCounts,
  EdgeKey,
  EdgePatch,
  EdgesRepository,
  EdgeValidity,
  ImportedEdge,
  NamedEntity,
  NewEdge,
  SoftContradiction,
  Triple,
} from './repositories/edges'
export type { EntityType, EntityTypesRepository } from './repositories/entity-types'
export type { Episode, EpisodesRepository, NewEpisode } from './repositories/episodes'
export type { Evidence, EvidenceRepository, NewEvidence } from './repositories/evidence'
export type { Feedback, FeedbackRepository } from './repositories/feedback'
export type { GraphGenerationsRepository } from './repositories/graph-generations'
export type { FactHistoryEntry, FactRef, HistoryRepository } from './repositories/history'
export type { CachedCompletion, LlmCacheRepository } from './repositories/llm-cache'
export type {
  Marker,
  MarkersRepository,
  NewMarker,
  ProfileEntry,
  ProfileEntryQuery,
  ProfileObservation,
} from './repositories/markers'
export type { Mention, MentionsRepository } from './repositories/mentions'
export type { MessageNeighbours, MessagesRepository, RecentMessagesQuery } from './repositories/message-types'
export type {
  NewNote,
  Note,
  NoteFilter,
  NotePair,
  NoteSourceId,
  NotesRepository,
  RestatedNote,
  StaleNotesFilter,
} from './repositories/notes'
export type {
  MessagePassages,
  Passage,
  PassagePage,
  PassageRange,
  PassagesRepository,
  UnsplitMessage,
} from './repositories/passages'
export type { PeerCardsRepository } from './repositories/peer-cards'
export type { NewProcedure, Procedure, ProcedureStep, ProceduresRepository } from './repositories/procedures'
export type { QueueTotal, QueueTotalsRepository } from './repositories/queue-totals'
export type { Scope, ScopeMember, ScopesRepository } from './repositories/scopes'
export type {
  LoggedSearch,
  SearchLogDay,
  SearchLogEntry,
  SearchLogRepository,
  SearchLogSummary,
} from './repositories/search-log'
export type {
  FirstMentionQuery,
  StandingRule,
  StandingRuleQuery,
  TopicBacklog,
  TopicMention,
  TopicPage,
  TopicsRepository,
} from './repositories/topics'
export { topicKey } from './repositories/topics'
export type { TrimBounds } from './repositories/trim-bounds'
export type {
  DreamRun,
  DreamRunOutcome,
  DreamRunsRepository,
  GetOrCreated,
  ImportedMessage,
  JsonObject,
  Message,
  NewMessage,
  Page,
  PageRequest,
  Peer,
  PeersRepository,
  Session,
  SessionListQuery,
  SessionPeer,
  SessionSnapshot,
  SessionsRepository,
  Workspace,
  WorkspacesRepository,
} from './repositories/types'
export type {
  FullTextHit,
  FullTextQuery,
  FullTextRebuildProgress,
  FullTextSearch,
  FullTextTable,
  VectorHit,
  VectorIndex,
  VectorIndexName,
  VectorPin,
  VectorRow,
} from './search/types'
export { cosineSimilarity } from './search/vector-math'
export { maskSecrets } from './secrets/mask-secrets'
export type { Repositories } from './store/repositories'
export type {
  PostgresStoreInfo,
  SqliteStoreInfo,
  Store,
  StoreBackend,
  StoreContext,
  StoreInfo,
  StoreLog,
  StoreLogEvent,
  StoreScope,
  VectorSupport,
} from './store/types'
export { ENGLISH_STOP_WORDS, statesStandingRule, tokenizeForFts, topicTerms } from './text'
