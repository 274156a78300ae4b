import type { HyMem, Note, NoteHit } from 'hymem'

type DreamReport = Awaited<ReturnType<HyMem['dream']>>

/** Readable renderings of tool results; the structured content carries the same data for machines. */
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

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}
