import type { Selectable } from 'kysely'
import { StoreError } from '../kernel/errors'
import { ISO_TIME_HINT, parseIsoTime } from '../kernel/iso-time'
import type { NotesTable } from '../kernel/tables'
import { isJsonObject } from './json'
import type { JsonObject } from './types'

/** What a note was derived from: message ids (integers) or other notes' ids (strings). */
export type NoteSourceId = string | number

/** An explicit memory: a one-line description plus its content. */
export interface Note {
  readonly id: string
  readonly workspaceId: string
  readonly description: string
  readonly content: string
  readonly importance: number
  readonly observerId: string | null
  readonly observedId: string | null
  readonly sessionId: string | null
  readonly level: string
  readonly sourceIds: readonly NoteSourceId[]
  /** How many times this note was stated (de-duplicated saves increment it). */
  readonly timesDerived: number
  readonly metadata: JsonObject
  readonly createdAt: string
  readonly updatedAt: string
  readonly lastAccessedAt: string
  /** Set while the note is forgotten (soft archive). */
  readonly archivedAt: string | null
}

/** A note to store; omitted fields take the defaults below. */
export interface NewNote {
  /** @default a new id from the store */
  readonly id?: string
  readonly description: string
  readonly content: string
  /** @default 1 */
  readonly importance?: number
  readonly observerId?: string | null
  readonly observedId?: string | null
  readonly sessionId?: string | null
  /** @default 'explicit' */
  readonly level?: string
  readonly sourceIds?: readonly NoteSourceId[]
  readonly metadata?: JsonObject
  /** Created, updated and last accessed. @default now */
  readonly createdAt?: string
  /** Set to store the note already archived. */
  readonly archivedAt?: string | null
}

/** The merged values of a repeated save (see `NotesRepository.restate`). */
export interface RestatedNote {
  readonly description: string
  readonly content: string
  readonly importance: number
  readonly sourceIds: readonly NoteSourceId[]
  readonly metadata: JsonObject
}

/** Who a note is by and about; `null` matches only notes without one. */
export interface NotePair {
  readonly observerId: string | null
  readonly observedId: string | null
}

/** Which notes a lookup by id may return. */
export interface NoteFilter {
  /** Only notes written by this observer. */
  readonly observerId?: string
  /** Only notes about this peer. */
  readonly observedId?: string
  /** Only notes about this peer or about nobody. */
  readonly aboutPeerOrNobody?: string
  /** Also archived (forgotten) notes. @default false */
  readonly includeArchived?: boolean
}

/** Which active notes a forget sweep takes: not accessed since `accessedBefore`, importance ≤ `maxImportance`. */
export interface StaleNotesFilter {
  readonly accessedBefore: string
  readonly maxImportance: number
}

/** Maps a `notes` row, tolerating malformed JSON columns (they read as empty). */
export function toNote(row: Selectable<NotesTable>): Note {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    description: row.description,
    content: row.content,
    importance: row.importance,
    observerId: row.observer_id,
    observedId: row.observed_id,
    sessionId: row.session_id,
    level: row.level,
    sourceIds: sourceIdsOf(row.source_ids),
    timesDerived: row.times_derived,
    metadata: metadataOf(row.metadata),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastAccessedAt: row.last_accessed_at,
    archivedAt: row.archived_at,
  }
}

/** Notes columns hold JSON we wrote; a hand-edited value that no longer parses reads as the empty value. */
function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

function sourceIdsOf(text: string): NoteSourceId[] {
  const value = parseOrNull(text)
  return Array.isArray(value) ? value.filter(isSourceId) : []
}

function metadataOf(text: string): JsonObject {
  const value = parseOrNull(text)
  return isJsonObject(value) ? value : {}
}

function isSourceId(value: unknown): value is NoteSourceId {
  return typeof value === 'string' || Number.isSafeInteger(value)
}

export function jsonText(value: unknown, field: string): string {
  try {
    return JSON.stringify(value)
  } catch (error) {
    throw new StoreError('INVALID_INPUT', `${field} is not serialisable as JSON`, { cause: error })
  }
}

export function checkSourceIds(values: readonly NoteSourceId[], field: string): string {
  if (!Array.isArray(values) || !values.every(isSourceId))
    throw new StoreError(
      'INVALID_INPUT',
      `${field} must be an array of note ids (strings) or message ids (integers)`,
    )
  return JSON.stringify(values)
}

export function checkNumber(value: number, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new StoreError('INVALID_INPUT', `${field} must be a finite number`)
  return value
}

export function checkTime(value: string, field: string): string {
  if (parseIsoTime(value) === null) throw new StoreError('INVALID_INPUT', `${field} must be ${ISO_TIME_HINT}`)
  return value
}
