import { writeSection } from '@hymem/core-store'
import type { RunContext } from '../run/context'

/** The MEMORY.md auto-section this step owns. */
export const INSIGHTS_SECTION = 'insights'

/** One line of MEMORY.md's auto-section. */
export interface Insight {
  readonly kind: 'dependency_hub' | 'preference' | 'rejection' | 'contradiction'
  readonly text: string
}

const PREFERENCE_PREDICATES = ['prefers', 'rejects', 'avoids'] as const

const pct = (c: number) => c.toFixed(2)

/**
 * Derives insights from the current graph (no LLM): dependency hubs (objects that two or more subjects
 * depend on directly with confidence above `hubMinConfidence`), strong preferences and rejections (above
 * `strongPreferenceConfidence`) and contradictions (edges with evidence both ways). Capped at
 * `insightsMaxEntries`, in that order of priority.
 */
export async function computeInsights(ctx: RunContext): Promise<Insight[]> {
  const { store, workspaceId, config } = ctx
  const current = store.db
    .selectFrom('knowledge_graph')
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'active')
    .where('valid_to', 'is', null)
  const deps = await current
    .select(['subject', 'object'])
    .where('predicate', '=', 'depends_on')
    .where('derived', '=', 0)
    .where('confidence', '>', config.hubMinConfidence)
    .orderBy('object')
    .orderBy('subject')
    .execute()
  const hubs = new Map<string, string[]>()
  for (const d of deps) hubs.set(d.object, [...(hubs.get(d.object) ?? []), d.subject])
  const insights: Insight[] = [...hubs]
    .filter(([, subjects]) => subjects.length >= 2)
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
    .map(([object, subjects]) => ({
      kind: 'dependency_hub' as const,
      text: `${object} is a shared dependency of: ${subjects.join(', ')}`,
    }))
  const strong = await current
    .select(['subject', 'predicate', 'object', 'confidence'])
    .where('predicate', 'in', PREFERENCE_PREDICATES)
    .where('derived', '=', 0)
    .where('confidence', '>', config.strongPreferenceConfidence)
    .orderBy('confidence', 'desc')
    .orderBy('subject')
    .orderBy('object')
    .execute()
  for (const e of strong) {
    insights.push({
      kind: e.predicate === 'prefers' ? 'preference' : 'rejection',
      text: `${e.subject} ${e.predicate} ${e.object} (confidence ${pct(e.confidence)})`,
    })
  }
  const contested = await current
    .select(['subject', 'predicate', 'object', 'pos_evidence', 'neg_evidence'])
    .where('derived', '=', 0)
    .where('pos_evidence', '>', 0)
    .where('neg_evidence', '>', 0)
    .orderBy('neg_evidence', 'desc')
    .orderBy('subject')
    .orderBy('object')
    .execute()
  for (const e of contested) {
    insights.push({
      kind: 'contradiction',
      text: `contradiction: ${e.subject} ${e.predicate} ${e.object} (${e.pos_evidence} for, ${e.neg_evidence} against)`,
    })
  }
  return insights.slice(0, config.insightsMaxEntries)
}

/** Recomputes the insights and rewrites MEMORY.md's auto-section. */
export async function refreshInsights(ctx: RunContext): Promise<void> {
  const insights = await computeInsights(ctx)
  ctx.tally.counts.insights = insights.length
  await writeSection(
    ctx.markdown.memoryMdPath,
    INSIGHTS_SECTION,
    insights.map((i) => `- ${i.text}`).join('\n'),
  )
}
