import type { Selectable } from 'kysely'
import type { NotesTable } from '../schema/tables'
import { pageWindow, toPage } from './pagination'
import type { RepositoryScope } from './scope'
import type { JsonObject, Page, PageRequest } from './types'

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

/** Explicit memories (`notes`). */
export interface NotesRepository {
  /** A page of the workspace's notes, active ones first, most recently updated first; archived ones only with `includeArchived`. */
  list(workspaceId: string, options?: { includeArchived?: boolean; page?: PageRequest }): Promise<Page<Note>>
}

export function createNotesRepository(scope: RepositoryScope): NotesRepository {
  const { db } = scope
  return {
    async list(workspaceId, options = {}) {
      const window = pageWindow(options.page)
      let query = db.selectFrom('notes').where('workspace_id', '=', workspaceId)
      if (!options.includeArchived) query = query.where('archived_at', 'is', null)
      const [rows, count] = await Promise.all([
        query
          .selectAll()
          .orderBy((eb) => eb('archived_at', 'is not', null))
          .orderBy('updated_at', 'desc')
          .orderBy('id')
          .limit(window.size)
          .offset(window.offset)
          .execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return toPage(rows.map(toNote), Number(count.n), window)
    },
  }
}
