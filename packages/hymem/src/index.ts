/**
 * `hymem`: local-first memory for AI agents. Log conversations into one SQLite file, dream over them
 * offline into a knowledge graph, a profile, episodes and procedures, and get ranked, explained context
 * back in milliseconds — with no LLM on the hot path. Also: explicit notes, stats, export/import, reindex,
 * and configuration from `HYMEM_*` environment variables.
 *
 * @example
 * import { createHyMem } from 'hymem'
 * const memory = await createHyMem({ root: '/tmp/hymem' })
 * await memory.log({ role: 'user', content: 'I prefer pnpm over npm.' })
 * await memory.dream()
 * const context = await memory.augment('which package manager?')
 * await memory.close()
 *
 * @module
 */
export type {
  Chunk,
  DreamRun,
  Edge,
  FactRef,
  LoosePermission,
  Message,
  NewMessage,
  Page,
  PageRequest,
  ProfileEntry,
  SearchLogDay,
  Store,
} from '@hymem/core-store'
/** `text` with URL passwords and password-, token- or key-like parameters masked: see `@hymem/core-store`. */
export { maskSecrets } from '@hymem/core-store'
export type {
  ContradictionInsight,
  DependencyHubInsight,
  DreamConfig,
  DreamProgressEvent,
  DreamReport,
  Insight,
  PreferenceInsight,
  ProfileData,
} from '@hymem/dreaming'
export type { EmbeddingClient, Extractor, LLMClient } from '@hymem/extraction'
export type {
  AugmentedContext,
  AugmentHit,
  AugmentLimits,
  Conflict,
  ConflictEdge,
  EpisodeHit,
  GraphFact,
  NoteHit as AugmentNoteHit,
  ProcedureHit,
  QueryConfig,
  RankedRef,
  RetrievalReason,
  SuppressedItem,
  SuppressionReason,
} from '@hymem/query'
export type { KeyProbe } from './config/check-key'
export { probeKey } from './config/check-key'
export { configFromEnv } from './config/config-from-env'
export type { FromConfigOptions } from './config/create-from-config'
export { createHyMemFromConfig } from './config/create-from-config'
export type { EmbeddingProvider, EnvVariable, LogLevel } from './config/env-schema'
export { EMBEDDING_PROVIDERS, ENV_SCHEMA, ENV_VARIABLES, LOG_LEVELS } from './config/env-schema'
export { resolveLocalModel } from './config/local-model'
export { redactConfig } from './config/redact'
export type { AuthToken, ConfigResult, HyMemConfig } from './config/types'
export { createHyMem } from './create-hymem'
export type { DatabaseOption } from './database/database-option'
export type { HyMemStoreOptions } from './database/open-hymem-store'
export { openHyMemStore } from './database/open-hymem-store'
export type { DreamBacklog, HyMemQueue, PendingWorkspace, QueueTotal } from './dream/queue-types'
export type { DreamWorkerClients } from './dream/worker-protocol'
export type { HyMemErrorCode } from './errors'
export { HyMemError } from './errors'
export type { MemoryLocation } from './files/memory-files'
export { findLooseMemoryFiles } from './files/memory-files'
export type { DeletionReceipt, ForgetOptions, HyMemErase } from './forget/types'
export type { AliasResult } from './graph/alias'
export type { EntityHistory, HistoryEvidence, HistoryFact } from './history/types'
export type {
  FactEvidence,
  FactView,
  GraphNode,
  GraphQuery,
  GraphView,
  HealthView,
  HyMemInspect,
  InspectFilters,
  TimelineDay,
  TimelineEvent,
  TimelineView,
} from './inspect/types'
export type { HyMemLog, HyMemLogEvent } from './log'
export { filterLog } from './log'
export type { LogStreamResult, SessionBatch } from './log-stream-types'
export type {
  ForgetInput,
  ForgetResult,
  HyMemNotes,
  Note,
  NoteHit,
  NotesConfig,
  RememberInput,
  SearchNotesOptions,
} from './notes/types'
export { DEFAULT_NOTES_CONFIG } from './notes/types'
export type {
  ConclusionRecords,
  HyMemRecords,
  HyMemSessions,
  MessageRecords,
  MessageTextSearch,
  PeerCardRecords,
  PeerRecords,
  ScopeRecords,
  WorkspaceRecords,
} from './records/types'
export type {
  BackgroundDreamStatus,
  DreamRunnerStatus,
  EventLoopDelay,
  RunningDream,
  RuntimeStatus,
} from './runtime/types'
export type { BoundedLogStats, DreamHistoryEntry, HyMemStats, SearchLogStats } from './stats/types'
export type { MigratedTable, MigrateOptions, MigrateReport } from './transfer/migrate'
export { migrateMemory } from './transfer/migrate'
export { DUMP_FORMAT, DUMP_FORMAT_VERSION } from './transfer/records'
export type { ImportReport, ReindexProgressEvent, ReindexReport } from './transfer/types'
export type {
  CaptureTurn,
  HyMem,
  HyMemAugmentOptions,
  HyMemDatabase,
  HyMemOptions,
  LogInput,
} from './types'
