import type { Kysely } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { HyMemDatabase } from '../kernel/tables'
import { requireId } from './json'
import { markNotesAccessed, notesByIds } from './note-id-lists'
import {
  checkNumber,
  checkSourceIds,
  checkTime,
  jsonText,
  type NewNote,
  type Note,
  type NoteFilter,
  type NotePair,
  type RestatedNote,
  type StaleNotesFilter,
  toNote,
} from './note-values'
import { listPage } from './pagination'
import type { RepositoryScope } from './scope'
import type { Page, PageRequest } from './types'

export type {
  NewNote,
  Note,
  NoteFilter,
  NotePair,
  NoteSourceId,
  RestatedNote,
  StaleNotesFilter,
} from './note-values'

/** Explicit memories (`notes`): remember/forget, their observers and provenance. */
export interface NotesRepository {
  /** A note of the workspace; archived notes only with `includeArchived`. */
  get(workspaceId: string, id: string, options?: { includeArchived?: boolean }): Promise<Note | null>
  /** The workspace's notes among `ids` that pass `filter` (default: not archived), in no particular order. */
  getByIds(workspaceId: string, ids: readonly string[], filter?: NoteFilter): Promise<Note[]>
  /** Active notes of one observer/observed pair, most recently updated first; `ids` narrows them. */
  activeForPair(workspaceId: string, pair: NotePair, ids?: readonly string[]): Promise<Note[]>
  /** Every note of the workspace, archived ones too, by id; fetched a page at a time. */
  iterate(workspaceId: string): AsyncIterable<Note>
  /** Stores a new note and returns it. */
  insert(workspaceId: string, note: NewNote): Promise<Note>
  /**
   * Records a repeated save of an existing note: its text, importance, sources and metadata become the given
   * (already merged) values, it counts one more derivation, and its update and access times move to now.
   */
  restate(workspaceId: string, id: string, values: RestatedNote): Promise<Note>
  /** Stores a note exactly as given (an import); false when its id exists, which is left untouched. */
  insertIfAbsent(note: Note): Promise<boolean>
  /** Soft-archives an active note now; null when there is no such active note. */
  archive(workspaceId: string, id: string): Promise<Note | null>
  /** How many active notes a sweep takes, and the first `limit` of them, stalest first. */
  findStale(
    workspaceId: string,
    filter: StaleNotesFilter,
    limit: number,
  ): Promise<{ total: number; notes: Note[] }>
  /** Archives every note {@link findStale} matches; returns how many and the archive time. */
  archiveStale(workspaceId: string, filter: StaleNotesFilter): Promise<{ archived: number; at: string }>
  /** Un-archives a note and refreshes its last access; null when the workspace has no such note. */
  restore(workspaceId: string, id: string): Promise<Note | null>
  /** Removes a note for good (its vector goes with it only through `vectors.remove`). */
  delete(workspaceId: string, id: string): Promise<boolean>
  /** Sets the last access time of the workspace's notes among `ids` (default now). */
  markAccessed(workspaceId: string, ids: readonly string[], at?: string): Promise<void>
  /** Active and archived counts of the workspace. */
  countByState(workspaceId: string): Promise<{ active: number; archived: number }>
  /**
   * A page of the workspace's notes, most recently updated first (`page.reverse`: oldest first): the active
   * ones; only the archived ones with `archived`; or all of them, active ones first, with `includeArchived`.
   */
  list(
    workspaceId: string,
    options?: { archived?: boolean; includeArchived?: boolean; page?: PageRequest },
  ): Promise<Page<Note>>
}

const PAGE = 500

export function createNotesRepository(scope: RepositoryScope): NotesRepository {
  const { db, context } = scope
  const select = (executor: Kysely<HyMemDatabase>, workspaceId: string) =>
    executor.selectFrom('notes').selectAll().where('workspace_id', '=', workspaceId)
  const read = async (executor: Kysely<HyMemDatabase>, workspaceId: string, id: string) =>
    toNote(await select(executor, workspaceId).where('id', '=', id).executeTakeFirstOrThrow())
  const stale = (workspaceId: string, filter: StaleNotesFilter) =>
    db
      .selectFrom('notes')
      .where('workspace_id', '=', workspaceId)
      .where('archived_at', 'is', null)
      .where('last_accessed_at', '<', checkTime(filter.accessedBefore, 'accessedBefore'))
      .where('importance', '<=', checkNumber(filter.maxImportance, 'maxImportance'))

  return {
    async get(workspaceId, id, options = {}) {
      let query = select(db, workspaceId).where('id', '=', id)
      if (!options.includeArchived) query = query.where('archived_at', 'is', null)
      const row = await query.executeTakeFirst()
      return row ? toNote(row) : null
    },
    async getByIds(workspaceId, ids, filter = {}) {
      requireId(workspaceId, 'workspace id')
      if (ids.length === 0) return []
      return (await notesByIds(scope.engine, db, workspaceId, ids, filter)).map(toNote)
    },
    async activeForPair(workspaceId, pair, ids) {
      if (ids !== undefined && ids.length === 0) return []
      let query = select(db, workspaceId)
        .where('archived_at', 'is', null)
        .where('observer_id', pair.observerId === null ? 'is' : '=', pair.observerId)
        .where('observed_id', pair.observedId === null ? 'is' : '=', pair.observedId)
      if (ids !== undefined) query = query.where('id', 'in', ids)
      return (await query.orderBy('updated_at', 'desc').execute()).map(toNote)
    },
    async *iterate(workspaceId) {
      let after: string | null = null
      for (;;) {
        let query = select(db, workspaceId).orderBy('id').limit(PAGE)
        if (after !== null) query = query.where('id', '>', after)
        const page = await query.execute()
        for (const row of page) yield toNote(row)
        const last = page.at(-1)
        if (!last || page.length < PAGE) return
        after = last.id
      }
    },
    async insert(workspaceId, note) {
      requireId(workspaceId, 'workspace id')
      if (note.id !== undefined) requireId(note.id, 'note id')
      if (typeof note.description !== 'string' || typeof note.content !== 'string')
        throw new StoreError('INVALID_INPUT', 'a note needs a description and content')
      if (note.createdAt !== undefined) checkTime(note.createdAt, 'createdAt')
      if (note.archivedAt != null) checkTime(note.archivedAt, 'archivedAt')
      const at = note.createdAt ?? context.now()
      const row = await db
        .insertInto('notes')
        .values({
          id: note.id ?? context.newId(),
          workspace_id: workspaceId,
          description: note.description,
          content: note.content,
          importance: checkNumber(note.importance ?? 1, 'importance'),
          observer_id: note.observerId ?? null,
          observed_id: note.observedId ?? null,
          session_id: note.sessionId ?? null,
          level: note.level ?? 'explicit',
          source_ids: checkSourceIds(note.sourceIds ?? [], 'sourceIds'),
          metadata: jsonText(note.metadata ?? {}, 'metadata'),
          created_at: at,
          updated_at: at,
          last_accessed_at: at,
          archived_at: note.archivedAt ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return toNote(row)
    },
    async restate(workspaceId, id, values) {
      const set = {
        description: values.description,
        content: values.content,
        importance: checkNumber(values.importance, 'importance'),
        source_ids: checkSourceIds(values.sourceIds, 'sourceIds'),
        metadata: jsonText(values.metadata, 'metadata'),
      }
      return scope.write(async (tx) => {
        const now = context.now()
        const result = await tx
          .updateTable('notes')
          .set((eb) => ({
            ...set,
            times_derived: eb('times_derived', '+', 1),
            updated_at: now,
            last_accessed_at: now,
          }))
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .executeTakeFirst()
        if (Number(result.numUpdatedRows) === 0)
          throw new StoreError('NOT_FOUND', `note ${id} not found in workspace ${workspaceId}`)
        return read(tx, workspaceId, id)
      })
    },
    async insertIfAbsent(note) {
      requireId(note.id, 'note id')
      requireId(note.workspaceId, 'workspace id')
      const values = {
        id: note.id,
        workspace_id: note.workspaceId,
        description: note.description,
        content: note.content,
        importance: checkNumber(note.importance, 'importance'),
        observer_id: note.observerId,
        observed_id: note.observedId,
        session_id: note.sessionId,
        level: note.level,
        source_ids: checkSourceIds(note.sourceIds, 'sourceIds'),
        times_derived: note.timesDerived,
        metadata: jsonText(note.metadata, 'metadata'),
        created_at: note.createdAt,
        updated_at: note.updatedAt,
        last_accessed_at: note.lastAccessedAt,
        archived_at: note.archivedAt,
      }
      const result = await scope.write((tx) =>
        tx
          .insertInto('notes')
          .values(values)
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst(),
      )
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async archive(workspaceId, id) {
      return scope.write(async (tx) => {
        const result = await tx
          .updateTable('notes')
          .set({ archived_at: context.now() })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .where('archived_at', 'is', null)
          .executeTakeFirst()
        return Number(result.numUpdatedRows) === 0 ? null : read(tx, workspaceId, id)
      })
    },
    async findStale(workspaceId, filter, limit) {
      if (!Number.isInteger(limit) || limit < 1)
        throw new StoreError('INVALID_INPUT', 'limit must be an integer ≥ 1')
      const criteria = stale(workspaceId, filter)
      const { total } = await criteria
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow()
      const rows = await criteria
        .selectAll()
        .orderBy('last_accessed_at', 'asc')
        .orderBy('id', 'asc')
        .limit(limit)
        .execute()
      return { total: Number(total), notes: rows.map(toNote) }
    },
    async archiveStale(workspaceId, filter) {
      checkTime(filter.accessedBefore, 'accessedBefore')
      checkNumber(filter.maxImportance, 'maxImportance')
      return scope.write(async (tx) => {
        const at = context.now()
        const result = await tx
          .updateTable('notes')
          .set({ archived_at: at })
          .where('workspace_id', '=', workspaceId)
          .where('archived_at', 'is', null)
          .where('last_accessed_at', '<', filter.accessedBefore)
          .where('importance', '<=', filter.maxImportance)
          .executeTakeFirst()
        return { archived: Number(result.numUpdatedRows), at }
      })
    },
    async restore(workspaceId, id) {
      return scope.write(async (tx) => {
        const result = await tx
          .updateTable('notes')
          .set({ archived_at: null, last_accessed_at: context.now() })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .executeTakeFirst()
        return Number(result.numUpdatedRows) === 0 ? null : read(tx, workspaceId, id)
      })
    },
    async delete(workspaceId, id) {
      const result = await scope.write((tx) =>
        tx
          .deleteFrom('notes')
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .executeTakeFirst(),
      )
      return Number(result.numDeletedRows) > 0
    },
    async markAccessed(workspaceId, ids, at) {
      requireId(workspaceId, 'workspace id')
      if (ids.length === 0) return
      if (at !== undefined) checkTime(at, 'at')
      await markNotesAccessed(scope.engine, db, workspaceId, ids, at ?? context.now())
    },
    async countByState(workspaceId) {
      const row = await db
        .selectFrom('notes')
        .where('workspace_id', '=', workspaceId)
        .select((eb) => [
          eb.fn.countAll<number>().as('total'),
          eb.fn.count<number>('archived_at').as('archived'),
        ])
        .executeTakeFirstOrThrow()
      const archived = Number(row.archived)
      return { active: Number(row.total) - archived, archived }
    },
    async list(workspaceId, options = {}) {
      requireId(workspaceId, 'workspace id')
      let query = db.selectFrom('notes').where('workspace_id', '=', workspaceId)
      if (options.archived === true) query = query.where('archived_at', 'is not', null)
      else if (options.includeArchived !== true) query = query.where('archived_at', 'is', null)
      return listPage(
        options.page,
        query,
        (rows, direction) => {
          // Newest first unless reversed.
          const newest = direction === 'asc' ? 'desc' : 'asc'
          return rows
            .selectAll()
            .orderBy((eb) => eb('archived_at', 'is not', null))
            .orderBy('updated_at', newest)
            .orderBy('id', newest)
        },
        toNote,
      )
    },
  }
}
