import type { AugmentedContext } from '../facade-types'
import type { Style } from '../format/style'
import { truncate } from '../format/table'

const MAX_TEXT = 100

/** Options of {@link renderAugmented}. */
export interface RenderAugmentedOptions {
  readonly style: Style
  /** Also print USER.md and MEMORY.md. */
  readonly profile?: boolean
  /** Hide per-stage timings (stable output for the demo and tests). */
  readonly timings?: boolean
  /** Prefix of every line. @default '' */
  readonly indent?: string
}

/** The readable form of an augment result: each section with scores and `why` reason codes. */
export function renderAugmented(result: AugmentedContext, options: RenderAugmentedOptions): string {
  const { style } = options
  const lines: string[] = []
  const section = (title: string, count: number) => lines.push(style.bold(`${title} (${count})`))
  const why = (codes: readonly string[]) => (codes.length > 0 ? style.dim(`   why: ${codes.join(', ')}`) : '')

  if (result.graphFacts.length > 0) {
    section('Facts', result.graphFacts.length)
    for (const fact of result.graphFacts) {
      const derived = fact.derived ? ' (derived)' : ''
      lines.push(
        `  ${style.cyan(`${fact.subject} —${fact.predicate}→ ${fact.object}`)}${derived}  conf ${fact.confidence.toFixed(2)}  score ${fact.score.toFixed(2)}`,
      )
      const reasons = why(fact.whyRetrieved)
      if (reasons) lines.push(`  ${reasons}`)
    }
  }
  if (result.procedures.length > 0) {
    section('Procedures', result.procedures.length)
    for (const procedure of result.procedures) {
      lines.push(`  ${style.cyan(procedure.name)}  score ${procedure.score.toFixed(2)}`)
      if (procedure.description && procedure.steps.length === 0) {
        lines.push(`    ${truncate(procedure.description, MAX_TEXT)}`)
      }
      for (const step of procedure.steps) lines.push(`    ${step.order}. ${truncate(step.text, MAX_TEXT)}`)
      const reasons = why(procedure.whyRetrieved)
      if (reasons) lines.push(`  ${reasons}`)
    }
  }
  if (result.episodes.length > 0) {
    section('Episodes', result.episodes.length)
    for (const episode of result.episodes) {
      lines.push(`  ${style.cyan(episode.title)}  score ${episode.score.toFixed(2)}`)
      lines.push(`    ${truncate(episode.summary, MAX_TEXT)}`)
      const reasons = why(episode.whyRetrieved)
      if (reasons) lines.push(`  ${reasons}`)
    }
  }
  if (result.notes.length > 0) {
    section('Notes', result.notes.length)
    for (const note of result.notes) {
      const sim = note.similarity === null ? '' : `  similarity ${note.similarity.toFixed(2)}`
      lines.push(`  ${style.cyan(note.description)}${sim}  score ${note.score.toFixed(2)}`)
      lines.push(`    ${truncate(note.content, MAX_TEXT)}`)
    }
  }
  if (result.hits.length > 0) {
    section('Messages', result.hits.length)
    for (const hit of result.hits) {
      const who = hit.peerId ?? hit.kind
      lines.push(`  ${hit.score.toFixed(3)}  ${who}: "${truncate(hit.text, MAX_TEXT)}"`)
      const reasons = why(hit.whyRetrieved)
      if (reasons) lines.push(`  ${reasons}`)
    }
  }
  if (lines.length === 0) lines.push('Nothing relevant found. Run "hymem dream" after logging conversations.')
  if (result.matchedEntities.length > 0) {
    lines.push(style.dim(`Matched entities: ${result.matchedEntities.join(', ')}`))
  }
  if (options.profile) {
    lines.push(
      style.bold('USER.md'),
      result.userMd.trim() || '(empty)',
      style.bold('MEMORY.md'),
      result.memoryMd.trim() || '(empty)',
    )
  }
  if (options.timings !== false && result.timings.total !== undefined) {
    lines.push(style.dim(`(${Math.round(result.timings.total)} ms)`))
  }
  const indent = options.indent ?? ''
  const all = lines.flatMap((line) => line.split('\n'))
  return `${all.map((line) => (line ? `${indent}${line}` : line)).join('\n')}\n`
}
