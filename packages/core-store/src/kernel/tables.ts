import type { Generated } from 'kysely'
import type { PassageEmbeddingsTable, PassagesTable } from './passage-tables'
import type { StandingRulesTable, TopicMentionsTable, TopicProgressTable } from './topic-tables'

/** JSON text columns hold a serialized object or array. */
export type JsonText = string
/** Times are ISO-8601 UTC strings (`Date#toISOString()`), which sort correctly as text. */
export type IsoTime = string

export type PeerRole = 'user' | 'assistant' | 'system' | 'tool' | 'other'
export type MessageRole = 'user' | 'assistant' | 'system' | 'tool'
export type EdgeStatus = 'active' | 'stale' | 'retracted'
export type MarkerKind = 'correction' | 'preference' | 'rejection' | 'style'
export type DreamRunStatus = 'running' | 'ok' | 'skipped' | 'failed' | 'aborted'
export type PurgeKind = 'workspace' | 'session' | 'messages' | 'peer-messages' | 'note' | 'fact'
export type PurgeStatus = 'requested' | 'rows-removed' | 'done'

export interface WorkspacesTable {
  id: string
  metadata: Generated<JsonText>
  configuration: Generated<JsonText>
  created_at: IsoTime
}

export interface PeersTable {
  workspace_id: string
  id: string
  role: Generated<PeerRole>
  metadata: Generated<JsonText>
  configuration: Generated<JsonText>
  created_at: IsoTime
}

export interface SessionsTable {
  workspace_id: string
  id: string
  is_active: Generated<number>
  metadata: Generated<JsonText>
  configuration: Generated<JsonText>
  summary: string | null
  summary_message_id: number | null
  summary_updated_at: IsoTime | null
  last_chunked_message_id: Generated<number>
  started_at: IsoTime
  ended_at: IsoTime | null
  created_at: IsoTime
}

export interface SessionPeersTable {
  workspace_id: string
  session_id: string
  peer_id: string
  configuration: Generated<JsonText>
  joined_at: IsoTime
  left_at: IsoTime | null
}

export interface MessagesTable {
  id: Generated<number>
  public_id: string
  workspace_id: string
  session_id: string
  peer_id: string
  role: MessageRole
  content: string
  metadata: Generated<JsonText>
  token_count: Generated<number>
  created_at: IsoTime
}

export interface ChunksTable {
  id: Generated<number>
  workspace_id: string
  session_id: string
  text: string
  salience_reason: string
  /** JSON array of `messages.id` this chunk was built from. */
  message_ids: Generated<JsonText>
  first_message_id: number
  last_message_id: number
  occurred_at: IsoTime
  created_at: IsoTime
}

export interface ProcessedChunksTable {
  chunk_id: number
  prompt_version: string
  extractor: string
  processed_at: IsoTime
}

export interface EntityMentionsTable {
  workspace_id: string
  chunk_id: number
  entity: string
}

export interface EntityTypesTable {
  workspace_id: string
  entity: string
  type: string
  evidence: Generated<number>
  updated_at: IsoTime
}

export interface EntityAliasesTable {
  workspace_id: string
  surface: string
  canonical: string
  created_at: IsoTime
}

export interface KnowledgeGraphTable {
  id: Generated<number>
  workspace_id: string
  subject: string
  predicate: string
  object: string
  pos_evidence: Generated<number>
  neg_evidence: Generated<number>
  confidence: Generated<number>
  status: Generated<EdgeStatus>
  derived: Generated<number>
  first_seen: IsoTime
  last_seen: IsoTime
  last_reinforced: IsoTime
  valid_from: IsoTime
  /** Set when a newer fact superseded this one; the edge stays queryable as history. */
  valid_to: IsoTime | null
  superseded_by: number | null
  /** When HyMem learned the fact: its first supporting evidence row's creation (null only mid-insert). */
  learned_at: Generated<IsoTime | null>
}

export interface KgEvidenceTable {
  id: Generated<number>
  workspace_id: string
  edge_id: number
  chunk_id: number | null
  /** JSON array of `messages.id` the evidence came from. */
  message_ids: Generated<JsonText>
  polarity: number
  value_text: string | null
  value_numeric: number | null
  value_unit: string | null
  temporal_scope: string | null
  evidence_text: string | null
  source: Generated<string>
  prompt_version: string | null
  observed_at: IsoTime
  created_at: IsoTime
}

export interface BehavioralMarkersTable {
  id: Generated<number>
  workspace_id: string
  peer_id: string | null
  chunk_id: number | null
  kind: MarkerKind
  statement: string
  consolidated: Generated<number>
  observed_at: IsoTime
  created_at: IsoTime
}

export interface ProfileEntriesTable {
  id: Generated<number>
  workspace_id: string
  peer_id: Generated<string>
  kind: string
  statement: string
  statement_key: string
  pos_evidence: Generated<number>
  neg_evidence: Generated<number>
  first_seen: IsoTime
  last_seen: IsoTime
}

export interface EpisodesTable {
  id: string
  workspace_id: string
  session_id: string
  title: string
  summary: string
  outcome: string | null
  entities: Generated<JsonText>
  chunk_ids: Generated<JsonText>
  message_ids: Generated<JsonText>
  started_at: IsoTime
  ended_at: IsoTime
  created_at: IsoTime
  updated_at: IsoTime
}

export interface ProceduresTable {
  id: string
  workspace_id: string
  session_id: string
  name: string
  description: string
  trigger_phrase: string | null
  /** JSON array of `{ order, text, tool? }`. */
  steps: Generated<JsonText>
  /** The steps flattened to text, for full-text search. */
  steps_text: Generated<string>
  entities: Generated<JsonText>
  chunk_ids: Generated<JsonText>
  message_ids: Generated<JsonText>
  created_at: IsoTime
  updated_at: IsoTime
}

export interface ExtractionFeedbackTable {
  id: Generated<number>
  workspace_id: string
  subject: string
  predicate: string
  object: string
  chunk_text: string | null
  reason: string | null
  created_at: IsoTime
}

export interface NotesTable {
  id: string
  workspace_id: string
  description: string
  content: string
  importance: Generated<number>
  observer_id: string | null
  observed_id: string | null
  session_id: string | null
  level: Generated<string>
  source_ids: Generated<JsonText>
  times_derived: Generated<number>
  metadata: Generated<JsonText>
  created_at: IsoTime
  updated_at: IsoTime
  last_accessed_at: IsoTime
  archived_at: IsoTime | null
}

export interface ChunkEmbeddingsTable {
  chunk_id: number
  workspace_id: string
  model: string
  text_hash: string
  vector: Uint8Array
}

export interface MessageEmbeddingsTable {
  message_id: number
  workspace_id: string
  model: string
  text_hash: string
  vector: Uint8Array
}

export interface EdgeEmbeddingsTable {
  text_key: string
  model: string
  vector: Uint8Array
}

export interface EdgeVectorsTable {
  edge_id: number
  workspace_id: string
  model: string
  text_hash: string
  vector: Uint8Array
}

export interface EpisodeEmbeddingsTable {
  episode_id: string
  workspace_id: string
  model: string
  text_hash: string
  vector: Uint8Array
}

export interface NoteEmbeddingsTable {
  note_id: string
  workspace_id: string
  model: string
  text_hash: string
  vector: Uint8Array
}

export interface VectorIndexesTable {
  name: string
  model: string
  dimensions: number
  created_at: IsoTime
}

export interface RunLockTable {
  name: string
  holder: string
  host: string
  pid: number
  acquired_at: IsoTime
  heartbeat_at: IsoTime
}

export interface DreamRunsTable {
  id: Generated<number>
  workspace_id: string
  status: DreamRunStatus
  skip_reason: string | null
  extractor: string | null
  prompt_version: string | null
  chunks_created: Generated<number>
  chunks_processed: Generated<number>
  edges_upserted: Generated<number>
  llm_calls: Generated<number>
  prompt_tokens: Generated<number>
  completion_tokens: Generated<number>
  counts: Generated<JsonText>
  timings: Generated<JsonText>
  errors: Generated<JsonText>
  started_at: IsoTime
  finished_at: IsoTime | null
}

export interface SearchLogTable {
  id: Generated<number>
  workspace_id: string
  surface: string
  query: string
  candidates: Generated<number>
  hits: Generated<number>
  top_score: number | null
  latency_ms: number
  created_at: IsoTime
}

export interface PeerCardsTable {
  workspace_id: string
  observer_id: string
  observed_id: string
  card: Generated<JsonText>
  updated_at: IsoTime
}

export interface ScopesTable {
  workspace_id: string
  id: string
  metadata: Generated<JsonText>
  created_at: IsoTime
}

export interface ScopeSessionsTable {
  workspace_id: string
  scope_id: string
  session_id: string
  joined_at: IsoTime
}

export interface LlmCacheTable {
  key: string
  model: string
  response: string
  usage: Generated<JsonText>
  created_at: IsoTime
}

export interface PurgesTable {
  id: Generated<number>
  workspace_id: string
  kind: PurgeKind
  /** The forgotten session, peer, note or edge id ('' for a workspace or a message list). */
  target: Generated<string>
  /** JSON array of the `messages.id` being forgotten (ids only, never content). */
  message_ids: Generated<JsonText>
  status: Generated<PurgeStatus>
  /** JSON object: rows removed or rebuilt, by kind (the deletion receipt). */
  removed: Generated<JsonText>
  requested_at: IsoTime
  rows_removed_at: IsoTime | null
  finished_at: IsoTime | null
}

export interface GraphGenerationsTable {
  workspace_id: string
  generation: number
}

export interface QueueTotalsTable {
  workspace_id: string
  /** The session's id; '' for the workspace's own total. */
  session_key: string
  total: number
}

/** The whole database, as kysely sees it. FTS5 and vec0 virtual tables are reached through `sql`. */
export interface HyMemDatabase {
  workspaces: WorkspacesTable
  peers: PeersTable
  sessions: SessionsTable
  session_peers: SessionPeersTable
  messages: MessagesTable
  chunks: ChunksTable
  processed_chunks: ProcessedChunksTable
  entity_mentions: EntityMentionsTable
  entity_types: EntityTypesTable
  entity_aliases: EntityAliasesTable
  knowledge_graph: KnowledgeGraphTable
  kg_evidence: KgEvidenceTable
  behavioral_markers: BehavioralMarkersTable
  profile_entries: ProfileEntriesTable
  episodes: EpisodesTable
  procedures: ProceduresTable
  extraction_feedback: ExtractionFeedbackTable
  notes: NotesTable
  chunk_embeddings: ChunkEmbeddingsTable
  edge_embeddings: EdgeEmbeddingsTable
  edge_vectors: EdgeVectorsTable
  episode_embeddings: EpisodeEmbeddingsTable
  note_embeddings: NoteEmbeddingsTable
  vector_indexes: VectorIndexesTable
  message_embeddings: MessageEmbeddingsTable
  passages: PassagesTable
  passage_embeddings: PassageEmbeddingsTable
  topic_mentions: TopicMentionsTable
  topic_progress: TopicProgressTable
  standing_rules: StandingRulesTable
  run_lock: RunLockTable
  dream_runs: DreamRunsTable
  search_log: SearchLogTable
  peer_cards: PeerCardsTable
  scopes: ScopesTable
  scope_sessions: ScopeSessionsTable
  llm_cache: LlmCacheTable
  purges: PurgesTable
  graph_generations: GraphGenerationsTable
  queue_totals: QueueTotalsTable
}
