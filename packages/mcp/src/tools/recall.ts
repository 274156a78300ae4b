import { z } from 'zod'
import { renderNoteHits } from '../render'
import { defineTool } from './define-tool'
import { toolError, toolResult } from './tool-context'

/** A bare date means its first moment, UTC. */
const dateOnly = (text: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? `${text.trim()}T00:00:00Z` : text

/** Token budget of `hymem_augment`'s block when the call names none. */
export const DEFAULT_AUGMENT_TOKENS = 1500

export const augmentTool = defineTool({
  name: 'hymem_augment',
  title: 'Recall context for a message',
  description:
    "Call before answering a user message: returns what HyMem remembers that is relevant to it as one block to paste into your context, within `tokens` — the user's profile and insights, facts from the knowledge graph (each with why it was retrieved), matching past conversation turns with speaker and date, explicit memories, episodes and procedures, best first. The structured result also lists what was left out and why (`suppressed`). Pass the user's message verbatim.",
  inputSchema: {
    message: z.string().min(1).max(100_000).describe("The user's message (or any question about the past)."),
    tokens: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .optional()
      .describe(`Most tokens of the returned block (o200k_base; default ${DEFAULT_AUGMENT_TOKENS}).`),
    limit: z.number().int().min(1).max(50).optional().describe('Most items per kind (default 8).'),
    as_of: z
      .string()
      .max(64)
      .optional()
      .describe('An ISO date or time: answer with what HyMem knew then (superseded facts as they were).'),
  },
  readOnly: true,
  async handle(args, { memory, workspaceId }) {
    const limit = args.limit
    const asOf = args.as_of === undefined ? undefined : dateOnly(args.as_of)
    if (asOf !== undefined && Number.isNaN(Date.parse(asOf)))
      return toolError(`as_of must be an ISO-8601 date or time, e.g. 2026-03-01, not "${args.as_of}"`)
    const context = await memory.augment(args.message, {
      workspaceId,
      ...(asOf ? { asOf } : {}),
      tokens: args.tokens ?? DEFAULT_AUGMENT_TOKENS,
      ...(limit
        ? { limits: { hits: limit, graph: limit, episodes: limit, procedures: limit, notes: limit } }
        : {}),
    })
    return toolResult(context.context || 'Nothing relevant is remembered yet.', {
      context: context.context ?? '',
      context_tokens: context.contextTokens,
      suppressed: context.suppressed.map((item) => ({
        kind: item.kind,
        id: item.id,
        summary: item.summary,
        why_suppressed: item.whySuppressed,
      })),
      matched_entities: context.matchedEntities,
      graph_facts: context.graphFacts.map((fact) => ({
        subject: fact.subject,
        predicate: fact.predicate,
        object: fact.object,
        confidence: fact.confidence,
        derived: fact.derived,
        score: fact.score,
        why_retrieved: fact.whyRetrieved,
      })),
      hits: context.hits.map((hit) => ({
        kind: hit.kind,
        text: hit.text,
        score: hit.score,
        session_id: hit.sessionId,
        created_at: hit.createdAt,
        why_retrieved: hit.whyRetrieved,
      })),
      episodes: context.episodes.map((e) => ({
        title: e.title,
        summary: e.summary,
        outcome: e.outcome,
        score: e.score,
      })),
      procedures: context.procedures.map((p) => ({
        name: p.name,
        description: p.description,
        steps: p.steps,
      })),
      notes: context.notes.map((n) => ({
        id: n.id,
        description: n.description,
        content: n.content,
        score: n.score,
      })),
    })
  },
})

export const profileTool = defineTool({
  name: 'hymem_profile',
  title: 'Read the profile',
  description:
    "Returns USER.md (the user's behavioural profile: preferences, rejections, corrections, style) and MEMORY.md (project insights: dependency hubs, strong preferences, contradictions). Read it at the start of a conversation.",
  inputSchema: {},
  readOnly: true,
  async handle(_args, { memory, workspaceId }) {
    const profile = await memory.profile({ workspaceId })
    const text = [
      '# USER.md',
      profile.userMd.trim() || '(empty)',
      '',
      '# MEMORY.md',
      profile.memoryMd.trim() || '(empty)',
    ].join('\n')
    return toolResult(text, { user_md: profile.userMd, memory_md: profile.memoryMd })
  },
})

export const searchTool = defineTool({
  name: 'hymem_search',
  title: 'Search explicit memories',
  description:
    'Search the memories saved with hymem_remember, by meaning and by keyword. Weak matches are dropped by two gates: an absolute similarity floor (min_similarity) and a relative cut-off below the best hit (relative_cutoff); pass 0 for both to survey everything. Keyword matches always pass.',
  inputSchema: {
    query: z.string().min(1).max(10_000).describe('What you are looking for, in words.'),
    limit: z.number().int().min(1).max(100).optional().describe('Most results (default 10).'),
    min_similarity: z.number().min(0).max(1).optional().describe('Absolute cosine floor, 0..1.'),
    relative_cutoff: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('Drop hits this far below the best one, 0..1.'),
  },
  readOnly: true,
  async handle(args, { memory, workspaceId }) {
    const hits = await memory.notes.search(args.query, {
      workspaceId,
      ...(args.limit !== undefined ? { limit: args.limit } : {}),
      ...(args.min_similarity !== undefined ? { minSimilarity: args.min_similarity } : {}),
      ...(args.relative_cutoff !== undefined ? { relativeCutoff: args.relative_cutoff } : {}),
    })
    return toolResult(renderNoteHits(hits), {
      results: hits.map((hit) => ({
        id: hit.note.id,
        description: hit.note.description,
        content: hit.note.content,
        importance: hit.note.importance,
        similarity: hit.similarity,
        score: hit.score,
        lexical: hit.lexical,
      })),
    })
  },
})
