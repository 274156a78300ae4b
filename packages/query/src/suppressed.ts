import type { Edge, Store } from '@hymem/core-store'
import type { ContextLine } from './context/render'
import { brief } from './context/render'
import { GRAPH_SEMANTIC_FLOOR } from './graph/score'
import { type SuppressionReason, suppressionCode } from './reasons'
import { type DroppedNote, noteMessageIds } from './search/notes'
import type { SuppressedItem } from './types'

/** Characters of an item's text in its `summary`. */
const SUMMARY_CHARS = 160

/** What each step of augment considered and left out. */
export interface SuppressedSources {
  /** Facts about the message's entities that the validity filter hides (retracted, superseded, ended). */
  readonly hiddenEdges: readonly Edge[]
  /** Facts the semantic fallback found below its similarity floor. */
  readonly weakEdges: readonly { readonly edge: Edge; readonly similarity: number }[]
  readonly notes: readonly DroppedNote[]
  /** Lines that did not fit in the context block of `budget` tokens. */
  readonly overBudget: {
    readonly budget: number
    readonly dropped: readonly { readonly line: ContextLine; readonly tokens: number }[]
  } | null
}

/**
 * The suppressed items of one augment: lines left out of the context block (in ranked order), then hidden
 * facts, weak facts and gated notes, each with its reason.
 */
export async function collectSuppressed(
  store: Store,
  workspaceId: string,
  sources: SuppressedSources,
): Promise<SuppressedItem[]> {
  const out: SuppressedItem[] = []
  const add = (
    kind: SuppressedItem['kind'],
    id: number | string,
    summary: string,
    reason: SuppressionReason,
    messageIds: number[],
  ) => out.push({ kind, id, summary, reason, whySuppressed: suppressionCode(reason), messageIds })

  for (const { line, tokens } of sources.overBudget?.dropped ?? []) {
    const budget = sources.overBudget?.budget ?? 0
    const summary = brief(line.text.replace(/^- /, ''), SUMMARY_CHARS)
    add(line.kind, line.id, summary, { kind: 'over_token_budget', tokens, budget }, [...line.messageIds])
  }
  const edges = [...sources.hiddenEdges, ...sources.weakEdges.map((weak) => weak.edge)]
  const provenance =
    edges.length === 0
      ? new Map<number, number[]>()
      : await store.evidence.sourceMessageIds(
          workspaceId,
          edges.map((edge) => edge.id),
        )
  for (const edge of sources.hiddenEdges)
    add('graph', edge.id, triple(edge), hiddenReason(edge), provenance.get(edge.id) ?? [])
  for (const { edge, similarity } of sources.weakEdges) {
    const reason: SuppressionReason = {
      kind: 'below_similarity_floor',
      similarity,
      floor: GRAPH_SEMANTIC_FLOOR,
    }
    add('graph', edge.id, triple(edge), reason, provenance.get(edge.id) ?? [])
  }
  for (const { note, reason } of sources.notes)
    add('note', note.id, brief(note.description, SUMMARY_CHARS), reason, noteMessageIds(note))
  return out
}

/** Why the validity filter hides an edge: retracted, superseded by a successor, or ended with none. */
export function hiddenReason(edge: Edge): SuppressionReason {
  if (edge.status === 'retracted') return { kind: 'retracted' }
  if (edge.supersededBy !== null)
    return { kind: 'superseded', by: edge.supersededBy, at: edge.validTo ?? edge.lastSeen }
  return { kind: 'stale', since: edge.validTo ?? edge.lastSeen }
}

function triple(edge: Edge): string {
  return `${edge.subject} ${edge.predicate} ${edge.object}`
}
