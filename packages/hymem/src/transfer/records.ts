import * as v from 'valibot'

/** Version of the JSONL dump format written by `export()` and read by `import()`. */
export const DUMP_FORMAT_VERSION = 1
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
  version: v.literal(
    DUMP_FORMAT_VERSION,
    `this hymem reads dump format version ${DUMP_FORMAT_VERSION} only; import it with the hymem version that wrote it`,
  ),
  exportedAt: time,
  schemaVersion: v.number(),
})

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
  evidence: v.array(
    v.object({
      /** Public ids of the messages the evidence came from. */
      messageIds: v.array(id),
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
})

/** Any line of a dump. */
export const RECORD = v.variant('type', [
  HEADER,
  WORKSPACE,
  PEER,
  SESSION,
  MESSAGE,
  ALIAS,
  EDGE,
  PROFILE,
  NOTE,
])

export type DumpRecord = v.InferOutput<typeof RECORD>
export type SessionRecord = v.InferOutput<typeof SESSION>
export type EdgeRecord = v.InferOutput<typeof EDGE>
