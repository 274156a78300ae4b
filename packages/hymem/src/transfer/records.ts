import * as v from 'valibot'

/** Version of the JSONL dump format written by `export()`; `import()` reads this one and every older one. */
export const DUMP_FORMAT_VERSION = 2
/** Format versions `import()` reads. */
export const READABLE_DUMP_VERSIONS = [1, 2] as const
/** The `format` field of a dump's header line. */
export const DUMP_FORMAT = 'hymem-dump'

const id = v.pipe(v.string(), v.minLength(1), v.maxLength(512))
const time = v.pipe(v.string(), v.minLength(1), v.maxLength(64))
const json = v.record(v.string(), v.unknown())
const nullableText = v.nullable(v.string())
const count = v.pipe(v.number(), v.integer(), v.minValue(0))

export const HEADER = v.object({
  type: v.literal('header'),
  format: v.literal(DUMP_FORMAT, `not a ${DUMP_FORMAT} file`),
  version: v.picklist(
    READABLE_DUMP_VERSIONS,
    `this hymem reads dump format versions ${READABLE_DUMP_VERSIONS.join(' and ')}; import it with the hymem version that wrote it`,
  ),
  exportedAt: time,
  schemaVersion: v.number(),
  /** Whether the dump carries stored vectors (`hymem export --with-vectors`). */
  vectors: v.optional(v.boolean()),
})

/** A stored vector: Float32 little-endian bytes, base64. */
export const VECTOR = v.object({
  model: v.pipe(v.string(), v.minLength(1)),
  textHash: v.string(),
  data: v.pipe(v.string(), v.base64()),
})

/** The model and dimension a vector index of the exporting store was pinned to. */
export const VECTOR_INDEX = v.object({
  type: v.literal('vector-index'),
  index: v.picklist(['chunks', 'edges', 'episodes', 'notes', 'messages']),
  model: v.pipe(v.string(), v.minLength(1)),
  dimensions: v.pipe(v.number(), v.integer(), v.minValue(1)),
})

/** A dump-local number naming a chunk, so evidence, markers, episodes and procedures can point at it. */
const chunkRef = v.pipe(v.number(), v.integer(), v.minValue(1))

export const WORKSPACE = v.object({
  type: v.literal('workspace'),
  id,
  metadata: json,
  configuration: json,
  createdAt: time,
})

export const PEER = v.object({
  type: v.literal('peer'),
  workspaceId: id,
  id,
  role: v.picklist(['user', 'assistant', 'system', 'tool', 'other']),
  metadata: json,
  configuration: json,
  createdAt: time,
})

export const SESSION = v.object({
  type: v.literal('session'),
  workspaceId: id,
  id,
  isActive: v.boolean(),
  metadata: json,
  configuration: json,
  summary: nullableText,
  /** Public id of the last message the summary covers. */
  summaryMessageId: v.nullable(id),
  summaryUpdatedAt: v.nullable(time),
  /** Public id of the last message dreaming chunked (later ones are still pending). */
  lastChunkedMessageId: v.nullable(id),
  startedAt: time,
  endedAt: v.nullable(time),
  createdAt: time,
  peers: v.array(v.object({ peerId: id, configuration: json, joinedAt: time, leftAt: v.nullable(time) })),
})

export const MESSAGE = v.object({
  type: v.literal('message'),
  workspaceId: id,
  sessionId: id,
  /** The public id. */
  id,
  peerId: id,
  role: v.picklist(['user', 'assistant', 'system', 'tool']),
  content: v.string(),
  metadata: json,
  tokenCount: count,
  createdAt: time,
  vector: v.optional(VECTOR),
})

export const CHUNK = v.object({
  type: v.literal('chunk'),
  workspaceId: id,
  ref: chunkRef,
  sessionId: id,
  text: v.string(),
  salienceReason: v.string(),
  /** Public ids of its messages, in chunk order. */
  messageIds: v.pipe(v.array(id), v.minLength(1)),
  firstMessageId: id,
  lastMessageId: id,
  occurredAt: time,
  createdAt: time,
  processed: v.array(v.object({ promptVersion: v.string(), extractor: v.string(), processedAt: time })),
  mentions: v.array(v.pipe(v.string(), v.minLength(1))),
  vector: v.optional(VECTOR),
})

export const ENTITY_TYPE = v.object({
  type: v.literal('entity-type'),
  workspaceId: id,
  entity: v.pipe(v.string(), v.minLength(1)),
  entityType: v.pipe(v.string(), v.minLength(1)),
  evidence: count,
  updatedAt: time,
})

export const ALIAS = v.object({
  type: v.literal('alias'),
  workspaceId: id,
  surface: v.pipe(v.string(), v.minLength(1)),
  canonical: v.pipe(v.string(), v.minLength(1)),
  createdAt: time,
})

const TRIPLE = {
  subject: v.pipe(v.string(), v.minLength(1)),
  predicate: id,
  object: v.pipe(v.string(), v.minLength(1)),
}

export const EDGE = v.object({
  type: v.literal('edge'),
  workspaceId: id,
  ...TRIPLE,
  derived: v.boolean(),
  posEvidence: count,
  negEvidence: count,
  confidence: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
  status: v.picklist(['active', 'stale', 'retracted']),
  firstSeen: time,
  lastSeen: time,
  lastReinforced: time,
  validFrom: time,
  validTo: v.nullable(time),
  supersededBy: v.nullable(v.object({ ...TRIPLE, derived: v.boolean() })),
  /** When HyMem learned the fact (format 2). */
  learnedAt: v.optional(v.nullable(time)),
  vector: v.optional(VECTOR),
  evidence: v.array(
    v.object({
      /** Public ids of the messages the evidence came from. */
      messageIds: v.array(id),
      /** The chunk it was extracted from (format 2). */
      chunk: v.optional(v.nullable(chunkRef)),
      polarity: v.picklist([1, -1]),
      valueText: nullableText,
      valueNumeric: v.nullable(v.number()),
      valueUnit: nullableText,
      temporalScope: nullableText,
      evidenceText: nullableText,
      source: v.string(),
      promptVersion: nullableText,
      observedAt: time,
      createdAt: time,
    }),
  ),
})

export const PROFILE = v.object({
  type: v.literal('profile'),
  workspaceId: id,
  peerId: v.string(),
  kind: v.pipe(v.string(), v.minLength(1)),
  statement: v.pipe(v.string(), v.minLength(1)),
  statementKey: v.pipe(v.string(), v.minLength(1)),
  posEvidence: count,
  negEvidence: count,
  firstSeen: time,
  lastSeen: time,
})

export const MARKER = v.object({
  type: v.literal('marker'),
  workspaceId: id,
  peerId: v.nullable(id),
  chunk: v.nullable(chunkRef),
  kind: v.picklist(['correction', 'preference', 'rejection', 'style']),
  statement: v.pipe(v.string(), v.minLength(1)),
  consolidated: v.boolean(),
  observedAt: time,
  createdAt: time,
})

const SESSION_SUMMARY_LINKS = {
  workspaceId: id,
  id,
  sessionId: id,
  entities: v.array(v.unknown()),
  chunks: v.array(chunkRef),
  /** Public ids of the messages it was built from. */
  messageIds: v.array(id),
  createdAt: time,
  updatedAt: time,
}

export const EPISODE = v.object({
  type: v.literal('episode'),
  ...SESSION_SUMMARY_LINKS,
  title: v.string(),
  summary: v.string(),
  outcome: nullableText,
  startedAt: time,
  endedAt: time,
  vector: v.optional(VECTOR),
})

export const PROCEDURE = v.object({
  type: v.literal('procedure'),
  ...SESSION_SUMMARY_LINKS,
  name: v.string(),
  description: v.string(),
  triggerPhrase: nullableText,
  steps: v.array(v.unknown()),
  stepsText: v.string(),
})

export const FEEDBACK = v.object({
  type: v.literal('feedback'),
  workspaceId: id,
  ...TRIPLE,
  chunkText: nullableText,
  reason: nullableText,
  createdAt: time,
})

export const SCOPE = v.object({
  type: v.literal('scope'),
  workspaceId: id,
  id,
  metadata: json,
  createdAt: time,
  sessions: v.array(v.object({ sessionId: id, joinedAt: time })),
})

export const PEER_CARD = v.object({
  type: v.literal('peer-card'),
  workspaceId: id,
  observerId: id,
  observedId: id,
  card: v.array(v.unknown()),
  updatedAt: time,
})

export const DREAM_RUN = v.object({
  type: v.literal('dream-run'),
  workspaceId: id,
  status: v.picklist(['running', 'ok', 'skipped', 'failed', 'aborted']),
  skipReason: nullableText,
  extractor: nullableText,
  promptVersion: nullableText,
  chunksCreated: count,
  chunksProcessed: count,
  edgesUpserted: count,
  llmCalls: count,
  promptTokens: count,
  completionTokens: count,
  counts: json,
  timings: json,
  errors: v.array(v.unknown()),
  startedAt: time,
  finishedAt: v.nullable(time),
})

export const NOTE = v.object({
  type: v.literal('note'),
  workspaceId: id,
  id,
  description: v.pipe(v.string(), v.minLength(1)),
  content: v.pipe(v.string(), v.minLength(1)),
  importance: v.number(),
  observerId: v.nullable(id),
  observedId: v.nullable(id),
  sessionId: v.nullable(id),
  level: v.string(),
  sourceIds: v.array(v.string()),
  timesDerived: count,
  metadata: json,
  createdAt: time,
  updatedAt: time,
  lastAccessedAt: time,
  archivedAt: v.nullable(time),
  vector: v.optional(VECTOR),
})

/** Any line of a dump. */
export const RECORD = v.variant('type', [
  HEADER,
  VECTOR_INDEX,
  WORKSPACE,
  PEER,
  SESSION,
  MESSAGE,
  CHUNK,
  ALIAS,
  ENTITY_TYPE,
  EDGE,
  MARKER,
  PROFILE,
  EPISODE,
  PROCEDURE,
  FEEDBACK,
  NOTE,
  SCOPE,
  PEER_CARD,
  DREAM_RUN,
])

export type DumpRecord = v.InferOutput<typeof RECORD>
export type SessionRecord = v.InferOutput<typeof SESSION>
export type EdgeRecord = v.InferOutput<typeof EDGE>
export type VectorRecord = v.InferOutput<typeof VECTOR>
type DumpRecordType = DumpRecord['type']
/** The record of one type. */
export type RecordOf<T extends DumpRecordType> = Extract<DumpRecord, { type: T }>
