import { topicTerms } from '@hymem/core-store'
import type { SearchContext } from './context'
import { asksForHelp } from './conversation-cues'

/** Words every rule uses ("always include examples"): sharing them with a request does not tie it to a topic. */
const RULE_WORDS = new Set(
  topicTerms(
    'always never prefer want please provide include give show use make sure mention when ask asking asked ' +
      'about discuss discussing detail details option options information answer answers response responses ' +
      'explain explanation example examples going forward from now on',
  ),
)

/** A standing rule that governs the request: a user told an assistant so, on a topic the request shares. */
export interface GoverningRule {
  readonly id: number
  readonly sessionId: string
  /** The topic term shared with the request that ties the rule to it (the first in the rule). */
  readonly term: string
}

/**
 * The `standingRulesTopK` standing rules (kept by dreaming in `store.topics`) that govern a request for help
 * ("can you suggest …", "how should I …"): the rules given to an assistant that share the most topic terms with
 * the request for their length (shared terms over the square root of the rule's own), newest first on ties.
 * None for a question about the past or the whole conversation.
 */
export async function governingRules(ctx: SearchContext, message: string): Promise<GoverningRule[]> {
  const { config, store, workspaceId } = ctx
  if (config.standingRulesTopK <= 0 || !asksForHelp(message)) return []
  const rules = await store.topics.standingRules(workspaceId, {
    ...(ctx.peerId !== undefined ? { peerId: ctx.peerId } : {}),
    ...(ctx.sessionIds ? { sessionIds: ctx.sessionIds } : {}),
  })
  if (rules.length === 0) return []
  const asked = new Set(topicTerms(message))
  const texts = new Map(
    (
      await store.messages.findByIds(
        workspaceId,
        rules.map((rule) => rule.messageId),
      )
    ).map((m) => [m.id, m.content]),
  )
  const matching = rules
    .map((rule) => {
      const terms = [...new Set(topicTerms(texts.get(rule.messageId) ?? ''))].filter(
        (t) => !RULE_WORDS.has(t),
      )
      const shared = terms.filter((t) => asked.has(t))
      // A short rule about the topic outweighs a long turn that names it in passing.
      const fit = shared.length / Math.sqrt(Math.max(1, terms.length))
      return { id: rule.messageId, sessionId: rule.sessionId, shared, fit }
    })
    .filter((rule) => rule.shared.length > 0)
    .sort((a, b) => b.fit - a.fit)
  const toldAssistant = await answeredByAssistant(
    ctx,
    matching.map((rule) => rule.id),
  )
  return matching
    .filter((rule) => toldAssistant.has(rule.id))
    .slice(0, config.standingRulesTopK)
    .map((rule) => ({ id: rule.id, sessionId: rule.sessionId, term: rule.shared[0] ?? '' }))
}

/** The turns of `ids` next to an assistant's turn (said to an assistant, not between people). */
async function answeredByAssistant(ctx: SearchContext, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const placed = await ctx.store.messages.findNeighbours(ctx.workspaceId, ids, 1)
  const partnerIds = placed
    .flatMap((place) => [place.before[0], place.after[0]])
    .filter((id) => id !== undefined)
  const assistants = new Set(
    (await ctx.store.messages.findByIds(ctx.workspaceId, [...new Set(partnerIds)]))
      .filter((message) => message.role === 'assistant')
      .map((message) => message.id),
  )
  return new Set(
    placed
      .filter((place) =>
        [place.before[0], place.after[0]].some((id) => id !== undefined && assistants.has(id)),
      )
      .map((place) => place.id),
  )
}
