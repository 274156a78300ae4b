/**
 * `@hymem/core-store`: HyMem's SQLite storage — schema and migrations, typed repositories, full-text and
 * vector search, canonical entity names, managed Markdown sections and the dream lock.
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
  CANONICAL_SEPARATOR,
  edgeConfidence,
  findCanonicalDrift,
  isCanonical,
  LEADING_ARTICLES,
  mergeCanonical,
  normalize,
  repairCanonicalDrift,
  resolveAlias,
} from './canonical'
export type { MatchQueryOptions } from './fts'
export { buildMatchQuery, DEFAULT_MAX_TERMS, ENGLISH_STOP_WORDS, tokenizeForFts } from './fts'
export type {
  HeldRunLock,
  RunLock,
  RunLockAcquireResult,
  RunLockHolder,
  RunLockOptions,
  RunLockTakeoverReason,
  SqliteLike,
} from './lock'
export { createRunLock, DEFAULT_LOCK_STALE_AFTER_MS, isProcessAlive } from './lock'
export { readManagedFile, readSection, sectionMarkers, writeSection } from './markdown'
export type { Repositories } from './repositories'
export type { Alias, AliasesRepository } from './repositories/aliases'
export type { Chunk, ChunksRepository } from './repositories/chunks'
export type { Edge, EdgeKey, EdgesRepository, ImportedEdge } from './repositories/edges'
export type { EntityTypesRepository } from './repositories/entity-types'
export type { Episode, EpisodesRepository } from './repositories/episodes'
export type { Evidence, EvidenceRepository, ImportedEvidence } from './repositories/evidence'
export type { FeedbackRepository } from './repositories/feedback'
export type { LlmCacheRepository } from './repositories/llm-cache'
export type { MarkersRepository, ProfileEntry } from './repositories/markers'
export type { MentionsRepository } from './repositories/mentions'
export type {
  NewNote,
  Note,
  NotePair,
  NotesRepository,
  RestatedNote,
  StaleNotesFilter,
} from './repositories/notes'
export type { PeerCardsRepository } from './repositories/peer-cards'
export { inferPeerRole } from './repositories/peer-role'
export type { ProceduresRepository } from './repositories/procedures'
export type { ScopesRepository } from './repositories/scopes'
export type { SearchLogEntry, SearchLogRepository, SearchLogSummary } from './repositories/search-log'
export type {
  DreamRun,
  DreamRunOutcome,
  DreamRunsRepository,
  GetOrCreated,
  ImportedMessage,
  JsonObject,
  Message,
  MessagesRepository,
  NewMessage,
  Page,
  PageRequest,
  Peer,
  PeersRepository,
  Session,
  SessionPeer,
  SessionSnapshot,
  SessionsRepository,
  Workspace,
  WorkspacesRepository,
} from './repositories/types'
export type { Migration } from './schema/migrations'
export { MIGRATIONS, SCHEMA_VERSION } from './schema/migrations'
export type * from './schema/tables'
export type {
  FullTextHit,
  FullTextQuery,
  FullTextSearch,
  FullTextTable,
  VectorHit,
  VectorIndex,
  VectorIndexName,
  VectorPin,
  VectorRow,
} from './search/types'
export { MAX_NEAREST_K } from './search/vector-index'
export type { StoreErrorCode } from './store/errors'
export { StoreError } from './store/errors'
export { randomId } from './store/ids'
export { openStore } from './store/open-store'
export type { StoreHeldRunLock, StoreRunLock, StoreRunLockAcquireResult } from './store/store-run-lock'
export type { ThreadWriteLock, ThreadWriteLockOptions } from './store/thread-write-lock'
export {
  createThreadWriteLock,
  releaseThreadWriteLockOf,
  threadWriteLockTag,
} from './store/thread-write-lock'
export type {
  OpenStoreOptions,
  Store,
  StoreContext,
  StoreInfo,
  StoreLog,
  StoreLogEvent,
  StoreScope,
  VectorSupport,
} from './store/types'
export { ISO_TIME_HINT, isoTimeSchema, parseIsoTime } from './time'
