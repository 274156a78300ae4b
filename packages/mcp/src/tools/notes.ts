import { z } from 'zod'
import { renderNote } from '../render'
import { defineTool } from './define-tool'
import { toolError, toolResult } from './tool-context'

const noteOut = (note: {
  id: string
  description: string
  content: string
  importance: number
  createdAt: string
  updatedAt: string
  archivedAt: string | null
}) => ({
  id: note.id,
  description: note.description,
  content: note.content,
  importance: note.importance,
  created_at: note.createdAt,
  updated_at: note.updatedAt,
  archived_at: note.archivedAt,
})

export const notesTool = defineTool({
  name: 'hymem_notes',
  title: 'List memories',
  description:
    'List the explicit memories saved with hymem_remember, most recently updated first; include_archived=true lists the ones hymem_forget archived instead. To find memories by meaning, use hymem_search.',
  inputSchema: {
    include_archived: z.boolean().optional().describe('List archived memories instead of active ones.'),
    page: z.number().int().min(1).max(100_000).optional().describe('Page of 50 (default 1).'),
  },
  readOnly: true,
  async handle(args, { memory, workspaceId }) {
    const archived = args.include_archived === true
    const page = await memory.notes.list({ workspaceId, archived, page: args.page ?? 1, size: 50 })
    const text =
      page.total === 0
        ? archived
          ? 'No archived memories.'
          : 'No memories saved yet.'
        : `${page.total} ${archived ? 'archived ' : ''}memories (page ${page.page} of ${page.pages}):\n${page.items.map(renderNote).join('\n')}`
    return toolResult(text, {
      total: page.total,
      page: page.page,
      pages: page.pages,
      notes: page.items.map(noteOut),
    })
  },
})

export const noteTool = defineTool({
  name: 'hymem_note',
  title: 'Read a memory',
  description:
    'Read one explicit memory by id (archived ones too). Delete it for good with hymem_erase what=note, archive it with hymem_forget.',
  inputSchema: { id: z.string().min(1).max(64).describe('The memory id.') },
  readOnly: true,
  async handle(args, { memory, workspaceId }) {
    const note = await memory.notes.get(args.id, { workspaceId, includeArchived: true })
    if (!note) return toolError(`No memory has id ${args.id}; hymem_notes lists them.`)
    return toolResult(
      `${note.description}${note.archivedAt ? ' (archived)' : ''}\n\n${note.content}`,
      noteOut(note),
    )
  },
})
