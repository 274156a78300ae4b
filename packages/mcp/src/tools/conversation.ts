import { z } from 'zod'
import { renderDreamReport } from '../render'
import { defineTool } from './define-tool'
import { toolResult } from './tool-context'

const ROLE = z.enum(['user', 'assistant', 'system', 'tool'])

export const captureTool = defineTool({
  name: 'hymem_capture',
  title: 'Capture a conversation',
  description:
    'Store a whole conversation (or the new turns of one) in long-term memory. Preferred over hymem_log: ' +
    'call it once at the end of a conversation, or every few turns, with the turns in order. The turns are ' +
    'searchable by keyword at once; facts, profile and episodes come from a background dream that this ' +
    'call asks for (it starts at once, or when the dream cooldown ends; hymem_stats says when). Set ' +
    'dream=true to dream before answering instead (slower).',
  inputSchema: {
    messages: z
      .array(
        z
          .object({
            role: ROLE.describe('Who spoke: user, assistant, system or tool.'),
            content: z.string().max(100_000).describe('The text of the turn.'),
            name: z
              .string()
              .min(1)
              .max(512)
              .optional()
              .describe('Speaker id, when several people share a role.'),
          })
          .strict(),
      )
      .min(1)
      .max(1000)
      .describe('The turns, oldest first.'),
    session_id: z
      .string()
      .regex(/^[a-zA-Z0-9_-]{1,512}$/, 'letters, digits, _ and - only')
      .optional()
      .describe('Conversation id; turns with the same id form one session. A new id is made when omitted.'),
    dream: z.boolean().optional().describe('Run a dreaming cycle after storing (default false).'),
  },
  readOnly: false,
  schedulesDream: true,
  async handle(args, { memory, workspaceId }) {
    const result = await memory.capture(args.messages, {
      workspaceId,
      ...(args.session_id ? { sessionId: args.session_id } : {}),
      dream: args.dream ?? false,
    })
    const lines = [`Stored ${result.messages.length} turn(s) in session ${result.sessionId}.`]
    if (result.dream) lines.push(renderDreamReport(result.dream))
    return toolResult(lines.join('\n'), {
      session_id: result.sessionId,
      stored: result.messages.length,
      message_ids: result.messages.map((message) => message.publicId),
      dream: result.dream,
    })
  },
})

export const logTool = defineTool({
  name: 'hymem_log',
  title: 'Log one turn',
  description:
    'Store a single conversation turn. Use hymem_capture instead when you have several turns; use this only ' +
    'when turns must be stored one at a time as they happen.',
  inputSchema: {
    role: ROLE.describe('Who spoke: user, assistant, system or tool.'),
    content: z.string().max(100_000).describe('The text of the turn.'),
    session_id: z
      .string()
      .regex(/^[a-zA-Z0-9_-]{1,512}$/, 'letters, digits, _ and - only')
      .optional()
      .describe('Conversation id (default: the "default" session).'),
  },
  readOnly: false,
  schedulesDream: true,
  async handle(args, { memory, workspaceId }) {
    const message = await memory.log({
      role: args.role,
      content: args.content,
      workspaceId,
      ...(args.session_id ? { sessionId: args.session_id } : {}),
    })
    return toolResult(`Stored the ${args.role} turn in session ${message.sessionId}.`, {
      session_id: message.sessionId,
      message_id: message.publicId,
    })
  },
})

export const dreamTool = defineTool({
  name: 'hymem_dream',
  title: 'Dream now',
  description:
    'Run a dreaming cycle now: turn stored conversations into facts, a profile, episodes and procedures. ' +
    'Usually HyMem dreams by itself; call this when you need new memories to be searchable immediately.',
  inputSchema: {
    budget: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .optional()
      .describe('Most conversation chunks to process (default 50).'),
  },
  readOnly: false,
  async handle(args, { memory, workspaceId }) {
    const report = await memory.dream({ workspaceId, ...(args.budget ? { budget: args.budget } : {}) })
    return toolResult(renderDreamReport(report), { report })
  },
})
