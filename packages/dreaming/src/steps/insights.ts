import { type StoreScope, writeSection } from '@hymem/core-store'
import { DEFAULT_DREAM_CONFIG, type DreamConfig } from '../config'
import { DreamError } from '../errors'
import type { RunContext } from '../run/context'

/** The MEMORY.md auto-section this step owns. */
export const INSIGHTS_SECTION = 'insights'

/** An object that two or more subjects depend on directly and confidently. */
export interface DependencyHubInsight {
  readonly kind: 'dependency_hub'
  readonly object: string
  /** The dependents, by name. */
  readonly subjects: readonly string[]
  /** The line MEMORY.md shows. */
  readonly text: string
}

/** A strong preference (`prefers`) or rejection (`rejects`, `avoids`). */
export interface PreferenceInsight {
  readonly kind: 'preference' | 'rejection'
  readonly subject: string
  readonly predicate: string
  readonly object: string
  readonly confidence: number
  readonly text: string
}

/** A fact with evidence both for and against it. */
export interface ContradictionInsight {
  readonly kind: 'contradiction'
  readonly subject: string
  readonly predicate: string
  readonly object: string
  readonly posEvidence: number
  readonly negEvidence: number
  readonly text: string
}

/** One line of MEMORY.md's auto-section, with the facts behind it. */
export type Insight = DependencyHubInsight | PreferenceInsight | ContradictionInsight

/** The thresholds insights are computed with. */
export type InsightThresholds = Pick<
  DreamConfig,
  'hubMinConfidence' | 'strongPreferenceConfidence' | 'insightsMaxEntries'
>

const PREFERENCE_PREDICATES = ['prefers', 'rejects', 'avoids'] as const

const pct = (c: number) => c.toFixed(2)

/**
 * The insights of a workspace's current graph (no LLM), as the last dream wrote them to MEMORY.md (the graph
 * changes only by dreaming, retraction and imports): dependency hubs (objects that two or more subjects
 * depend on directly with confidence above `hubMinConfidence`), strong preferences and rejections (above
 * `strongPreferenceConfidence`) and contradictions (edges with evidence both ways). Capped at
 * `insightsMaxEntries`, in that order of priority.
 *
 * @example
 * for (const insight of await readInsights(store, 'default')) console.log(insight.kind, insight.text)
 */
export async function readInsights(
  store: StoreScope,
  workspaceId: string,
  thresholds: Partial<InsightThresholds> = {},
): Promise<Insight[]> {
  for (const [key, value] of Object.entries(thresholds)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new DreamError('INVALID_INPUT', `${key} must be a finite number >= 0, got ${String(value)}`)
  }
  const config = { ...DEFAULT_DREAM_CONFIG, ...thresholds }
  const deps = await store.edges.findConfidentDependencies(workspaceId, config.hubMinConfidence)
  const hubs = new Map<string, string[]>()
  for (const d of deps) hubs.set(d.object, [...(hubs.get(d.object) ?? []), d.subject])
  const insights: Insight[] = [...hubs]
    .filter(([, subjects]) => subjects.length >= 2)
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
    .map(([object, subjects]) => ({
      kind: 'dependency_hub' as const,
      object,
      subjects,
      text: `${object} is a shared dependency of: ${subjects.join(', ')}`,
    }))
  const strong = await store.edges.findConfidentWithPredicates(
    workspaceId,
    PREFERENCE_PREDICATES,
    config.strongPreferenceConfidence,
  )
  for (const e of strong) {
    insights.push({
      kind: e.predicate === 'prefers' ? 'preference' : 'rejection',
      subject: e.subject,
      predicate: e.predicate,
      object: e.object,
      confidence: e.confidence,
      text: `${e.subject} ${e.predicate} ${e.object} (confidence ${pct(e.confidence)})`,
    })
  }
  for (const e of await store.edges.findContested(workspaceId)) {
    insights.push({
      kind: 'contradiction',
      subject: e.subject,
      predicate: e.predicate,
      object: e.object,
      posEvidence: e.posEvidence,
      negEvidence: e.negEvidence,
      text: `contradiction: ${e.subject} ${e.predicate} ${e.object} (${e.posEvidence} for, ${e.negEvidence} against)`,
    })
  }
  return insights.slice(0, config.insightsMaxEntries)
}

/** Only the insight thresholds of a (partial) dream config, so other settings are not checked as thresholds. */
export function insightThresholds(config: Partial<InsightThresholds>): Partial<InsightThresholds> {
  const { hubMinConfidence, strongPreferenceConfidence, insightsMaxEntries } = config
  return {
    ...(hubMinConfidence !== undefined ? { hubMinConfidence } : {}),
    ...(strongPreferenceConfidence !== undefined ? { strongPreferenceConfidence } : {}),
    ...(insightsMaxEntries !== undefined ? { insightsMaxEntries } : {}),
  }
}

/** Recomputes the insights and rewrites MEMORY.md's auto-section. */
export async function refreshInsights(ctx: RunContext): Promise<void> {
  const { hubMinConfidence, strongPreferenceConfidence, insightsMaxEntries } = ctx.config
  const insights = await readInsights(ctx.store, ctx.workspaceId, {
    hubMinConfidence,
    strongPreferenceConfidence,
    insightsMaxEntries,
  })
  ctx.tally.counts.insights = insights.length
  if (ctx.markdown === null) return
  await writeSection(ctx.markdown.memoryMdPath, INSIGHTS_SECTION, insightsSectionBody(insights))
}

/** The body of MEMORY.md's insights section: one bullet per insight. */
export function insightsSectionBody(insights: readonly Insight[]): string {
  return insights.map((i) => `- ${i.text}`).join('\n')
}
