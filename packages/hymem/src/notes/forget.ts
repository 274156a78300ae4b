import { HyMemError } from '../errors'
import { type NotesContext, optionalInteger, optionalNumber } from './context'
import type { ForgetInput, ForgetResult, Note } from './types'

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
    if (!apply) {
      const note = await store.notes.get(workspaceId, id)
      return { matched: note ? 1 : 0, notes: note ? [note] : [], applied: false, truncated: false }
    }
    const archived = await store.notes.archive(workspaceId, id)
    if (!archived) return { matched: 0, notes: [], applied: true, truncated: false }
    context.log({ kind: 'note', level: 'info', action: 'archived', workspaceId, ids: [id] })
    return { matched: 1, notes: [archived], applied: true, truncated: false }
  }

  const staleDays = optionalNumber(input.staleDays, 'staleDays', 0, 100_000) ?? context.config.forgetAfterDays
  const maxImportance =
    optionalNumber(input.maxImportance, 'maxImportance', -1_000_000, 1_000_000) ??
    context.config.forgetMaxImportance
  const accessedBefore = new Date(store.context.clock().getTime() - staleDays * DAY_MS).toISOString()
  const filter = { accessedBefore, maxImportance }
  return store.transaction(async (tx) => {
    const { total, notes } = await tx.notes.findStale(workspaceId, filter, limit)
    if (!apply || total === 0)
      return { matched: total, notes, applied: apply, truncated: total > notes.length }
    const { at } = await tx.notes.archiveStale(workspaceId, filter)
    const archived = notes.map((note) => ({ ...note, archivedAt: at }))
    context.log({
      kind: 'note',
      level: 'info',
      action: 'archived',
      workspaceId,
      ids: archived.map((n) => n.id),
    })
    return { matched: total, notes: archived, applied: true, truncated: total > archived.length }
  })
}

/** Un-archives a note and refreshes its last access, so the next sweep does not forget it again. */
export async function restoreNote(
  context: NotesContext,
  workspaceId: string,
  id: string,
): Promise<Note | null> {
  requireNoteId(id)
  const note = await context.store.notes.restore(workspaceId, id)
  if (note) context.log({ kind: 'note', level: 'info', action: 'restored', workspaceId, ids: [id] })
  return note
}

/** A note by id (archived ones only when asked). */
export async function getNote(
  context: NotesContext,
  workspaceId: string,
  id: string,
  includeArchived: boolean,
): Promise<Note | null> {
  requireNoteId(id)
  return context.store.notes.get(workspaceId, id, { includeArchived })
}

function requireNoteId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || id === '')
    throw new HyMemError('INVALID_INPUT', 'note id must be a non-empty string')
}
