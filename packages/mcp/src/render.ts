import type { HyMem, Note, NoteHit } from 'hymem'

type AugmentedContext = Awaited<ReturnType<HyMem['augment']>>
type DreamReport = Awaited<ReturnType<HyMem['dream']>>

/** Readable renderings of tool results; the structured content carries the same data for machines. */
export function renderAugmentedContext(context: AugmentedContext): string {
  const sections: string[] = []
  if (context.graphFacts.length > 0) {
    sections.push(
      section(
        'Facts',
        context.graphFacts.map(
          (fact) =>
            `- ${fact.subject} ${fact.predicate} ${fact.object} (confidence ${fact.confidence.toFixed(2)}${fact.derived ? ', inferred' : ''}) — why: ${fact.whyRetrieved.join(', ')}`,
        ),
      ),
    )
  }
  if (context.hits.length > 0) {
    sections.push(
      section(
        'From past conversations',
        context.hits.map((hit) => `- [${hit.createdAt.slice(0, 10)}] ${oneLine(hit.text, 300)}`),
      ),
    )
  }
  if (context.episodes.length > 0) {
    sections.push(
      section(
        'Episodes',
        context.episodes.map(
          (e) => `- ${e.title}: ${oneLine(e.summary, 300)}${e.outcome ? ` → ${e.outcome}` : ''}`,
        ),
      ),
    )
  }
  if (context.procedures.length > 0) {
    sections.push(
      section(
        'Procedures',
        context.procedures.map(
          (p) =>
            `- ${p.name}: ${p.steps.map((step) => `${step.order}. ${oneLine(step.text, 120)}`).join(' ')}`,
        ),
      ),
    )
  }
  if (context.notes.length > 0) {
    sections.push(
      section(
        'Saved memories',
        context.notes.map((n) => `- ${n.description}: ${oneLine(n.content, 300)}`),
      ),
    )
  }
  if (sections.length === 0) return 'Nothing relevant is remembered yet.'
  const entities =
    context.matchedEntities.length > 0 ? `Matched entities: ${context.matchedEntities.join(', ')}\n\n` : ''
  return `${entities}${sections.join('\n\n')}`
}

export function renderDreamReport(report: DreamReport): string {
  const figures = Object.entries(report.counts ?? {})
    .filter(([, value]) => typeof value === 'number' && value > 0)
    .map(([key, value]) => `${key} ${value}`)
  const head = `Dream ${report.status}${report.skipReason ? ` (${report.skipReason})` : ''}`
  return figures.length > 0 ? `${head}: ${figures.join(', ')}.` : `${head}.`
}

export function renderNote(note: Note): string {
  return `- ${note.id} (importance ${note.importance}): ${note.description}`
}

export function renderNoteHits(hits: readonly NoteHit[]): string {
  if (hits.length === 0) return 'No saved memory matches.'
  return hits
    .map((hit) => {
      const similarity = hit.similarity === null ? 'keyword match' : `similarity ${hit.similarity.toFixed(2)}`
      return `- ${hit.note.id} (${similarity}): ${hit.note.description}\n  ${oneLine(hit.note.content, 500)}`
    })
    .join('\n')
}

function section(title: string, lines: readonly string[]): string {
  return [`## ${title}`, ...lines].join('\n')
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}
