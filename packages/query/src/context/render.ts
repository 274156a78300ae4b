import type { AugmentHit, EpisodeHit, GraphFact, NoteHit, ProcedureHit, RankedRef } from '../types'

/** Characters of one item's text in the context block; longer texts are cut with an ellipsis. */
const ITEM_CHARS = 1000
/** Reason codes shown after a fact. */
const FACT_REASONS = 3

/** One ranked item as a line of the context block. */
export interface ContextLine {
  readonly kind: RankedRef['kind']
  readonly id: number | string
  readonly text: string
  readonly messageIds: number[]
}

/** The items of an augment result, by kind and id. */
export interface RenderSources {
  readonly hits: readonly AugmentHit[]
  readonly graphFacts: readonly GraphFact[]
  readonly episodes: readonly EpisodeHit[]
  readonly procedures: readonly ProcedureHit[]
  readonly notes: readonly NoteHit[]
}

/** The ranked items as lines of the context block, in ranked order. */
export function renderLines(ranked: readonly RankedRef[], sources: RenderSources): ContextLine[] {
  const find = <T extends { id: number | string }>(list: readonly T[], id: number | string) =>
    list.find((item) => item.id === id)
  const lines: ContextLine[] = []
  for (const ref of ranked) {
    const text =
      ref.kind === 'hit'
        ? hitLine(find(sources.hits, ref.id))
        : ref.kind === 'graph'
          ? factLine(find(sources.graphFacts, ref.id))
          : ref.kind === 'note'
            ? noteLine(find(sources.notes, ref.id))
            : ref.kind === 'episode'
              ? episodeLine(find(sources.episodes, ref.id))
              : procedureLine(find(sources.procedures, ref.id))
    if (text !== null) lines.push({ kind: ref.kind, id: ref.id, text, messageIds: ref.messageIds })
  }
  return lines
}

/** A turn with its date and speaker: `- [2023-05-08 caroline] I went to the support group yesterday.` */
export function hitLine(hit: AugmentHit | undefined): string | null {
  if (!hit) return null
  const who = hit.peerId === null ? '' : ` ${hit.peerId}`
  return `- [${hit.createdAt.slice(0, 10)}${who}] ${brief(hit.text)}`
}

/** A fact with its reasons in brief: `- api uses postgres (why: entity_match, predicate:uses; confidence 0.82)` */
export function factLine(fact: GraphFact | undefined): string | null {
  if (!fact) return null
  const why = fact.whyRetrieved.slice(0, FACT_REASONS).join(', ')
  const inferred = fact.derived ? ', inferred' : ''
  return `- ${fact.subject} ${fact.predicate} ${fact.object} (${why ? `why: ${why}; ` : ''}confidence ${fact.confidence.toFixed(2)}${inferred})`
}

export function noteLine(note: NoteHit | undefined): string | null {
  if (!note) return null
  return `- Note: ${brief(note.description)} — ${brief(note.content)}`
}

export function episodeLine(episode: EpisodeHit | undefined): string | null {
  if (!episode) return null
  const outcome = episode.outcome ? ` → ${brief(episode.outcome)}` : ''
  return `- Episode: ${brief(episode.title)} — ${brief(episode.summary)}${outcome}`
}

export function procedureLine(procedure: ProcedureHit | undefined): string | null {
  if (!procedure) return null
  const steps = procedure.steps.map((step) => `${step.order}. ${step.text}`).join(' ')
  return `- Procedure: ${brief(procedure.name)} — ${brief(steps)}`
}

/** One line, at most ITEM_CHARS characters. */
export function brief(text: string, chars = ITEM_CHARS): string {
  const line = text.replace(/\s+/g, ' ').trim()
  if (line.length <= chars) return line
  // Never cut a surrogate pair in half.
  const high = line.charCodeAt(chars - 2)
  const end = high >= 0xd800 && high <= 0xdbff ? chars - 2 : chars - 1
  return `${line.slice(0, end)}…`
}
