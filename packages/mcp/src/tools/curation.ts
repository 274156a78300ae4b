import { z } from 'zod'
import { renderNote } from '../render'
import { defineTool } from './define-tool'
import { toolError, toolResult } from './tool-context'

export const aliasTool = defineTool({
  name: 'hymem_alias',
  title: 'Teach a name',
  description:
    'Tell HyMem that a surface form means an entity it already knows, e.g. surface "pg" → canonical "postgresql", so facts about either are found together.',
  inputSchema: {
    surface: z.string().min(1).max(200).describe('The name as people write it, e.g. "pg".'),
    canonical: z.string().min(1).max(200).describe('The entity it stands for, e.g. "postgresql".'),
  },
  readOnly: false,
  schedulesDream: true,
  async handle(args, { memory, workspaceId }) {
    const alias = await memory.alias(args.surface, args.canonical, { workspaceId })
    return toolResult(`"${alias.surface}" now resolves to ${alias.canonical}.`, { ...alias })
  },
})

export const retractTool = defineTool({
  name: 'hymem_retract',
  title: 'Retract a wrong fact',
  description:
    'Retract a fact HyMem extracted wrongly (as shown by hymem_augment: subject, predicate, object). It stops being returned, and future extraction is taught not to repeat it.',
  inputSchema: {
    subject: z.string().min(1).max(200),
    predicate: z.string().min(1).max(64),
    object: z.string().min(1).max(200),
    reason: z.string().max(1000).optional().describe('Why it is wrong (kept for audit).'),
  },
  readOnly: false,
  schedulesDream: true,
  async handle(args, { memory, workspaceId }) {
    const { retracted } = await memory.retract(args, { workspaceId })
    if (retracted === 0) {
      return toolError(
        `No active fact (${args.subject}, ${args.predicate}, ${args.object}) exists; copy the triple exactly as hymem_augment shows it.`,
      )
    }
    return toolResult(`Retracted (${args.subject}, ${args.predicate}, ${args.object}).`, { retracted })
  },
})

export const rememberTool = defineTool({
  name: 'hymem_remember',
  title: 'Save an explicit memory',
  description:
    'Save something worth remembering across conversations (a decision, a convention, a value). description is a one-line summary used for ranking and de-duplication; content is the full text. Saving a near-duplicate updates the existing memory instead of adding another.',
  inputSchema: {
    description: z.string().min(1).max(500).describe('One line: what this memory is about.'),
    content: z.string().min(1).max(65_535).describe('The memory itself.'),
    importance: z.number().min(0).max(10).optional().describe('0–10; higher is kept longer (default 1).'),
  },
  readOnly: false,
  schedulesDream: true,
  async handle(args, { memory, workspaceId }) {
    const { note, deduplicated } = await memory.notes.remember(args, { workspaceId })
    const verb = deduplicated ? 'Updated existing memory' : 'Saved memory'
    return toolResult(`${verb} ${note.id}: ${note.description}`, { id: note.id, deduplicated })
  },
})

export const forgetTool = defineTool({
  name: 'hymem_forget',
  title: 'Forget memories',
  description:
    'Archive explicit memories: one by id, or a sweep of stale (not recalled for stale_days) unimportant (importance ≤ max_importance) ones. A dry run unless apply=true; archived memories can be brought back with hymem_restore.',
  inputSchema: {
    id: z.string().min(1).max(64).optional().describe('Archive this one memory.'),
    stale_days: z
      .number()
      .int()
      .min(0)
      .max(36_500)
      .optional()
      .describe('Sweep: not recalled for this many days.'),
    max_importance: z.number().min(0).max(10).optional().describe('Sweep: importance at most this.'),
    apply: z
      .boolean()
      .optional()
      .describe('Really archive (default false: only report what would be archived).'),
  },
  readOnly: false,
  async handle(args, { memory, workspaceId }) {
    const result = await memory.notes.archive(
      {
        ...(args.id ? { id: args.id } : {}),
        ...(args.stale_days !== undefined ? { staleDays: args.stale_days } : {}),
        ...(args.max_importance !== undefined ? { maxImportance: args.max_importance } : {}),
        apply: args.apply ?? false,
      },
      { workspaceId },
    )
    if (args.id && result.matched === 0) return toolError(`No active memory has id ${args.id}.`)
    const head = result.applied
      ? `Archived ${result.matched} memory(ies).`
      : `Dry run: ${result.matched} memory(ies) would be archived; call again with apply=true to archive them.`
    const body = result.notes.map(renderNote).join('\n')
    return toolResult(`${head}${body ? `\n${body}` : ''}${result.truncated ? '\n(list truncated)' : ''}`, {
      matched: result.matched,
      applied: result.applied,
      truncated: result.truncated,
      ids: result.notes.map((note) => note.id),
    })
  },
})

export const restoreTool = defineTool({
  name: 'hymem_restore',
  title: 'Restore a memory',
  description: 'Bring back a memory archived by hymem_forget.',
  inputSchema: { id: z.string().min(1).max(64).describe('The id hymem_forget reported.') },
  readOnly: false,
  async handle(args, { memory, workspaceId }) {
    const note = await memory.notes.restore(args.id, { workspaceId })
    if (!note) return toolError(`No memory has id ${args.id}; hymem_forget lists the ids it archived.`)
    return toolResult(`Restored ${note.id}: ${note.description}`, { id: note.id })
  },
})

export const statsTool = defineTool({
  name: 'hymem_stats',
  title: 'Memory statistics',
  description:
    'How much HyMem holds (messages, facts, episodes, memories), its recent dreaming runs, search figures (volume, empty-result rate, latency, recent misses), and next_dream: whether a background dream runs and when the next one is due.',
  inputSchema: {},
  readOnly: true,
  async handle(_args, { memory, workspaceId }) {
    const stats = await memory.stats({ workspaceId })
    const { running, dueAt } = memory.queue.background(workspaceId)
    const structured = { ...stats, next_dream: { running, due_at: dueAt } }
    return toolResult(JSON.stringify(structured, null, 2), structured)
  },
})
