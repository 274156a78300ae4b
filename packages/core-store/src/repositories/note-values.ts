import type { Selectable } from 'kysely'
import type { NotesTable } from '../schema/tables'
import { StoreError } from '../store/errors'
import { ISO_TIME_HINT, parseIsoTime } from '../time'
import type { JsonObject } from './types'

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
  readonly sourceIds: readonly string[]
  /** How many times this note was stated (de-duplicated saves increment it). */
  readonly timesDerived: number
  readonly metadata: JsonObject
  readonly createdAt: string
  readonly updatedAt: string
  readonly lastAccessedAt: string
  /** Set while the note is forgotten (soft archive). */
  readonly archivedAt: string | null
}

/** A note to store; the store gives it an id and its times. */
export interface NewNote {
  readonly description: string
  readonly content: string
  readonly importance: number
  readonly observerId: string | null
  readonly observedId: string | null
  readonly sessionId: string | null
  readonly level: string
  readonly sourceIds: readonly string[]
  readonly metadata: JsonObject
}

/** The merged values of a repeated save (see {@link NotesRepository.restate}). */
export interface RestatedNote {
  readonly description: string
  readonly content: string
  readonly importance: number
  readonly sourceIds: readonly string[]
  readonly metadata: JsonObject
}

/** Who a note is by and about; `null` matches only notes without one. */
export interface NotePair {
  readonly observerId: string | null
  readonly observedId: string | null
}

/** Which active notes a forget sweep takes: not accessed since `accessedBefore`, importance ≤ `maxImportance`. */
export interface StaleNotesFilter {
  readonly accessedBefore: string
  readonly maxImportance: number
}

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
    sourceIds: tolerantJson(row.source_ids, [] as string[]).filter(
      (item): item is string => typeof item === 'string',
    ),
    timesDerived: row.times_derived,
    metadata: tolerantJson<JsonObject>(row.metadata, {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastAccessedAt: row.last_accessed_at,
    archivedAt: row.archived_at,
  }
}

/** Notes columns hold JSON we wrote; a hand-edited value that no longer parses reads as the empty value. */
function tolerantJson<T extends object>(text: string, fallback: T): T {
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(fallback) === Array.isArray(value) && value !== null && typeof value === 'object'
      ? (value as T)
      : fallback
  } catch {
    return fallback
  }
}

export function jsonText(value: unknown, field: string): string {
  try {
    return JSON.stringify(value)
  } catch (error) {
    throw new StoreError('INVALID_INPUT', `${field} is not serialisable as JSON`, { cause: error })
  }
}

export function checkStrings(values: readonly string[], field: string): string {
  if (!Array.isArray(values) || values.some((value) => typeof value !== 'string'))
    throw new StoreError('INVALID_INPUT', `${field} must be an array of strings`)
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
