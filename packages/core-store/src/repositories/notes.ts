import { type Selectable, sql } from 'kysely'
import type { NotesTable } from '../schema/tables'
import { StoreError } from '../store/errors'
import { selectByIdsSqlite } from './by-ids'
import { isJsonObject, requireId } from './json'
import type { RepositoryScope } from './scope'
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
  /** What the note was derived from: message ids (numbers) or other notes' ids (strings). */
  readonly sourceIds: readonly (string | number)[]
  /** How many times this note was stated (de-duplicated saves increment it). */
  readonly timesDerived: number
  readonly metadata: JsonObject
  readonly createdAt: string
  readonly updatedAt: string
  readonly lastAccessedAt: string
  /** Set while the note is forgotten (soft archive). */
  readonly archivedAt: string | null
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

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

function sourceIdsOf(text: string): (string | number)[] {
  const value = parseOrNull(text)
  return Array.isArray(value)
    ? value.filter((id): id is string | number => typeof id === 'string' || typeof id === 'number')
    : []
}

function metadataOf(text: string): JsonObject {
  const value = parseOrNull(text)
  return isJsonObject(value) ? value : {}
}

/** Which notes a lookup may return. */
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

/** A new note, written as given. */
export interface NewNote {
  readonly id: string
  readonly description: string
  readonly content: string
  /** @default 1 */
  readonly importance?: number
  readonly observerId?: string | null
  readonly observedId?: string | null
  readonly sessionId?: string | null
  readonly sourceIds?: readonly (string | number)[]
  readonly metadata?: JsonObject
  /** Created, updated and last accessed. @default now */
  readonly createdAt?: string
  /** Set to store the note already archived. */
  readonly archivedAt?: string | null
}

/** Explicit notes (`notes`): remember/forget memories, their observers and provenance. */
export interface NotesRepository {
  /** One note (archived or not), or null. */
  get(workspaceId: string, id: string): Promise<Note | null>
  /** The workspace's notes among `ids` that pass `filter` (default: not archived), in no particular order. */
  getByIds(workspaceId: string, ids: readonly string[], filter?: NoteFilter): Promise<Note[]>
  /** Sets the last access time of the given notes (default now). */
  markAccessed(workspaceId: string, ids: readonly string[], at?: string): Promise<void>
  insert(workspaceId: string, note: NewNote): Promise<Note>
}

export function createNotesRepository(scope: RepositoryScope): NotesRepository {
  const { db } = scope
  return {
    async get(workspaceId, id) {
      const row = await db
        .selectFrom('notes')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toNote(row) : null
    },
    async getByIds(workspaceId, ids, filter = {}) {
      requireId(workspaceId, 'workspace id')
      if (ids.length === 0) return []
      const where = []
      if (!filter.includeArchived) where.push(sql`archived_at IS NULL`)
      if (filter.observerId !== undefined) where.push(sql`observer_id = ${filter.observerId}`)
      if (filter.observedId !== undefined) where.push(sql`observed_id = ${filter.observedId}`)
      if (filter.aboutPeerOrNobody !== undefined)
        where.push(sql`(observed_id IS NULL OR observed_id = ${filter.aboutPeerOrNobody})`)
      return (await selectByIdsSqlite(db, 'notes', workspaceId, ids, where)).map(toNote)
    },
    async markAccessed(workspaceId, ids, at) {
      requireId(workspaceId, 'workspace id')
      if (ids.length === 0) return
      await sql`UPDATE notes SET last_accessed_at = ${at ?? scope.context.now()}
        WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND +workspace_id = ${workspaceId}`.execute(
        db,
      )
    },
    async insert(workspaceId, note) {
      requireId(workspaceId, 'workspace id')
      requireId(note.id, 'note id')
      if (typeof note.description !== 'string' || typeof note.content !== 'string')
        throw new StoreError('INVALID_INPUT', 'a note needs a description and content')
      const at = note.createdAt ?? scope.context.now()
      const row = await db
        .insertInto('notes')
        .values({
          id: note.id,
          workspace_id: workspaceId,
          description: note.description,
          content: note.content,
          importance: note.importance ?? 1,
          observer_id: note.observerId ?? null,
          observed_id: note.observedId ?? null,
          session_id: note.sessionId ?? null,
          source_ids: JSON.stringify(note.sourceIds ?? []),
          metadata: JSON.stringify(note.metadata ?? {}),
          created_at: at,
          updated_at: at,
          last_accessed_at: at,
          archived_at: note.archivedAt ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return toNote(row)
    },
  }
}
