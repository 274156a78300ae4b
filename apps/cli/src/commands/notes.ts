import type { Note, Page } from 'hymem'
import { EXIT_FAILURE, ExitError } from '../exit-error'
import { truncate } from '../format/table'
import type { CliContext } from '../io'
import { withHyMem } from '../open-hymem'
import type { GlobalOptions } from '../program'

/** Options of `hymem notes`. */
export interface NotesCommandOptions extends GlobalOptions {
  readonly json?: boolean
  /** List (or find) archived notes instead of active ones. */
  readonly archived?: boolean
  readonly page?: number
}

/**
 * Lists explicit notes, most recently updated first (`--archived`: the archived ones), or prints one note by
 * id. Forget one for good with `hymem forget note <id>`.
 */
export async function notesCommand(
  id: string | undefined,
  options: NotesCommandOptions,
  ctx: CliContext,
): Promise<Page<Note> | Note> {
  const archived = options.archived === true
  const result = await withHyMem(
    options,
    ctx,
    async (hymem) => {
      if (id === undefined) return hymem.notes.list({ archived, page: options.page ?? 1, size: 50 })
      const note = await hymem.notes.get(id, { includeArchived: true })
      if (!note) throw new ExitError(EXIT_FAILURE, `no note has id ${id} in workspace ${hymem.workspaceId}`)
      return note
    },
    { quiet: true },
  )
  if (options.json) ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
  else ctx.stdout.write('items' in result ? renderNotes(result, archived) : renderNote(result))
  return result
}

export function renderNotes(page: Page<Note>, archived: boolean): string {
  if (page.total === 0) return archived ? 'No archived notes.\n' : 'No notes yet.\n'
  const head = `${page.total} ${archived ? 'archived ' : ''}note(s), page ${page.page} of ${page.pages}\n`
  const lines = page.items.map(
    (note) =>
      `  ${note.id}  ${note.updatedAt.slice(0, 10)}  ${truncate(note.description, 40)}: ${truncate(note.content, 70)}`,
  )
  return `${head}${lines.join('\n')}\n`
}

export function renderNote(note: Note): string {
  const fields: [string, string][] = [
    ['id', note.id],
    ['description', note.description],
    ['importance', String(note.importance)],
    ['created', note.createdAt],
    ['updated', note.updatedAt],
    ['archived', note.archivedAt ?? 'no'],
  ]
  if (note.observedId) fields.push(['about', note.observedId])
  if (note.sessionId) fields.push(['session', note.sessionId])
  return `${fields.map(([k, v]) => `${k.padEnd(12)}${v}`).join('\n')}\n\n${note.content}\n`
}
