import type { NotesContext } from './context'
import { forgetNotes, getNote, restoreNote } from './forget'
import { rememberNote } from './remember'
import { searchNotes } from './search'
import type { HyMemNotes } from './types'

/** What `memory.notes` needs from its facade. */
export interface NotesApiParts {
  readonly notes: NotesContext
  /** The workspace a call names, or the facade's default one (validated); throws when the facade is closed. */
  readonly workspace: (workspaceId: string | undefined) => string
}

/** Builds `memory.notes`. */
export function createNotesApi({ notes, workspace }: NotesApiParts): HyMemNotes {
  return {
    remember: async (input, options = {}) => rememberNote(notes, workspace(options.workspaceId), input),
    search: async (query, options = {}) => searchNotes(notes, workspace(options.workspaceId), query, options),
    get: async (id, options = {}) =>
      getNote(notes, workspace(options.workspaceId), id, options.includeArchived === true),
    async list(options = {}) {
      const { workspaceId, archived, ...page } = options
      return notes.store.notes.list(workspace(workspaceId), { archived: archived === true, page })
    },
    archive: async (input, options = {}) => forgetNotes(notes, workspace(options.workspaceId), input),
    restore: async (id, options = {}) => restoreNote(notes, workspace(options.workspaceId), id),
  }
}
