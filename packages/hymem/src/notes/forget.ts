import { HyMemError } from '../errors'
import type { ForgetInput, ForgetResult } from '../types'
import { type NotesContext, optionalInteger, optionalNumber } from './context'
import { readNote } from './remember'
import { toNote } from './rows'
import type { Note } from './types'

const DAY_MS = 86_400_000

/**
 * Soft-archives one note by id, or sweeps notes that are both stale (not accessed for `staleDays`) and
 * unimportant (importance ≤ `maxImportance`). A dry run unless `apply`. `matched` is the true total, exactly
 * what `apply` archives; `notes` lists at most `limit` of them, stalest first.
 */
export async function forgetNotes(
  context: NotesContext,
  workspaceId: string,
  input: ForgetInput,
): Promise<ForgetResult> {
  if (typeof input !== 'object' || input === null)
    throw new HyMemError('INVALID_INPUT', 'forget needs an object')
  const apply = input.apply === true
  const limit = optionalInteger(input.limit, 'limit', 1, 100_000) ?? 100
  const { store } = context
  if (input.id !== undefined) {
    if (typeof input.id !== 'string' || input.id === '')
      throw new HyMemError('INVALID_INPUT', 'id must be a non-empty string')
    const id = input.id
    return store.transaction(async (tx) => {
      const row = await tx.db
        .selectFrom('notes')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .where('archived_at', 'is', null)
        .executeTakeFirst()
      if (!row) return { matched: 0, notes: [], applied: apply, truncated: false }
      if (!apply) return { matched: 1, notes: [toNote(row)], applied: false, truncated: false }
      await tx.db
        .updateTable('notes')
        .set({ archived_at: store.context.now() })
        .where('id', '=', id)
        .execute()
      context.log({ kind: 'note', level: 'info', action: 'archived', workspaceId, ids: [id] })
      return { matched: 1, notes: [await readNote(tx, id)], applied: true, truncated: false }
    })
  }

  const staleDays = optionalNumber(input.staleDays, 'staleDays', 0, 100_000) ?? context.config.forgetAfterDays
  const maxImportance =
    optionalNumber(input.maxImportance, 'maxImportance', -1_000_000, 1_000_000) ??
    context.config.forgetMaxImportance
  const cutoff = new Date(store.context.clock().getTime() - staleDays * DAY_MS).toISOString()
  return store.transaction(async (tx) => {
    const criteria = tx.db
      .selectFrom('notes')
      .where('workspace_id', '=', workspaceId)
      .where('archived_at', 'is', null)
      .where('last_accessed_at', '<', cutoff)
      .where('importance', '<=', maxImportance)
    const { matched } = await criteria
      .select((eb) => eb.fn.countAll<number>().as('matched'))
      .executeTakeFirstOrThrow()
    const rows = await criteria
      .selectAll()
      .orderBy('last_accessed_at', 'asc')
      .orderBy('id', 'asc')
      .limit(limit)
      .execute()
    let notes: Note[] = rows.map(toNote)
    if (apply && matched > 0) {
      const now = store.context.now()
      await tx.db
        .updateTable('notes')
        .set({ archived_at: now })
        .where('workspace_id', '=', workspaceId)
        .where('archived_at', 'is', null)
        .where('last_accessed_at', '<', cutoff)
        .where('importance', '<=', maxImportance)
        .execute()
      notes = notes.map((note) => ({ ...note, archivedAt: now }))
      context.log({
        kind: 'note',
        level: 'info',
        action: 'archived',
        workspaceId,
        ids: notes.map((n) => n.id),
      })
    }
    return { matched: Number(matched), notes, applied: apply, truncated: Number(matched) > notes.length }
  })
}

/** Un-archives a note and refreshes its last access, so the next sweep does not forget it again. */
export async function restoreNote(
  context: NotesContext,
  workspaceId: string,
  id: string,
): Promise<Note | null> {
  requireNoteId(id)
  const now = context.store.context.now()
  const result = await context.store.db
    .updateTable('notes')
    .set({ archived_at: null, last_accessed_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) === 0) return null
  context.log({ kind: 'note', level: 'info', action: 'restored', workspaceId, ids: [id] })
  return readNote(context.store, id)
}

/** Removes a note and its vector for good. */
export async function deleteNote(context: NotesContext, workspaceId: string, id: string): Promise<boolean> {
  requireNoteId(id)
  const deleted = await context.store.transaction(async (tx) => {
    const result = await tx.db
      .deleteFrom('notes')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst()
    if (Number(result.numDeletedRows) === 0) return false
    await tx.vectors.remove('notes', [id])
    return true
  })
  if (deleted) context.log({ kind: 'note', level: 'info', action: 'deleted', workspaceId, ids: [id] })
  return deleted
}

/** A note by id (archived ones only when asked). */
export async function getNote(
  context: NotesContext,
  workspaceId: string,
  id: string,
  includeArchived: boolean,
): Promise<Note | null> {
  requireNoteId(id)
  let query = context.store.db
    .selectFrom('notes')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
  if (!includeArchived) query = query.where('archived_at', 'is', null)
  const row = await query.executeTakeFirst()
  return row ? toNote(row) : null
}

function requireNoteId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || id === '')
    throw new HyMemError('INVALID_INPUT', 'note id must be a non-empty string')
}
