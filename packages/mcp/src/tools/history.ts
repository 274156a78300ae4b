import { z } from 'zod'
import { defineTool } from './define-tool'
import { toolResult } from './tool-context'

const day = (iso: string | null) => (iso === null ? '?' : iso.slice(0, 10))

export const historyTool = defineTool({
  name: 'hymem_history',
  title: "An entity's history",
  description:
    "How what HyMem knows about an entity changed over time, oldest first: each fact with when it became true and when HyMem learned it, what superseded it (or what it replaced), retractions, and its evidence. Use it for questions like 'what did we use before?' or 'since when?'. Fact ids shown here are what hymem_erase what=fact takes.",
  inputSchema: {
    subject: z.string().min(1).max(200).describe('The entity, e.g. "billing service" or "Postgres".'),
  },
  readOnly: true,
  async handle(args, { memory, workspaceId }) {
    const history = await memory.history(args.subject, { workspaceId })
    const lines = history.facts.map((fact) => {
      const parts = [
        `- #${fact.id} ${fact.subject} ${fact.predicate} ${fact.object}${fact.derived ? ' (inferred)' : ''}`,
        `[${fact.status}]`,
        `true since ${day(fact.becameTrueAt)}${fact.validTo ? ` until ${day(fact.validTo)}` : ''}`,
        `learned ${day(fact.learnedAt)}`,
      ]
      if (fact.supersededBy) parts.push(`superseded by ${fact.supersededBy.object}`)
      if (fact.retraction) parts.push(`retracted: ${fact.retraction.reason ?? 'no reason given'}`)
      const quotes = fact.evidence.flatMap((e) => (e.text ? [`"${e.text}"`] : [])).slice(0, 2)
      return `${parts.join(' · ')}${quotes.length > 0 ? ` — ${quotes.join('; ')}` : ''}`
    })
    const text =
      lines.length === 0
        ? `HyMem knows no facts about ${history.entity}.`
        : `History of ${history.entity}, oldest first:\n${lines.join('\n')}`
    return toolResult(text, { ...history })
  },
})

export const conflictsTool = defineTool({
  name: 'hymem_conflicts',
  title: 'Contradicting facts',
  description:
    'Facts HyMem holds that contradict each other: one subject with competing objects under an exclusive predicate (e.g. two deploy targets), or one pair under opposing predicates (prefers / rejects). Ask the user which is right, then hymem_retract the wrong one.',
  inputSchema: {},
  readOnly: true,
  async handle(_args, { memory, workspaceId }) {
    const conflicts = await memory.conflicts({ workspaceId })
    const text =
      conflicts.length === 0
        ? 'No conflicting facts.'
        : conflicts
            .map(
              (c) =>
                `- ${c.subject} ${c.predicate}${c.object ? ` ${c.object}` : ''}: ${c.edges
                  .map(
                    (e) => `${e.subject} ${e.predicate} ${e.object} (confidence ${e.confidence.toFixed(2)})`,
                  )
                  .join(' vs ')}`,
            )
            .join('\n')
    return toolResult(text, { conflicts })
  },
})
