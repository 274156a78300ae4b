import type { ExtractedProcedure } from '../extractor/types'
import { entityTokens } from './salience'

const LIST_ITEM = /^\s*(?:(\d+)[.)]|[-*•]|step\s+(\d+)[:.)])\s+(.+)$/i
const HEADING =
  /^\s*(?:#{1,6}\s*)?(?:(?:here is|here's|this is) how (?:we|i|you|to) |(?:the )?steps? (?:to|for) |how (?:we|i|to) |to |when(?:ever)? |before |after |for )?(.+?)\s*:?\s*$/i
const HOW_TO =
  /\b(?:how|steps?|to|process|workflow|procedure|checklist|runbook|playbook|release|deploy\w*|install\w*|set ?up|setup|upgrade|rollback|migrat\w+|onboard\w*)\b/i
const SEQUENCE_SPLIT =
  /,?\s*\b(?:and then|then|next|after that|afterwards|and finally|finally|lastly|last)\b,?\s*/i
const SEQUENCE_START = /\b(first(?:ly)?|start by|begin by|step one)\b,?\s*/i
const COMMAND =
  /(?:^|:\s*|\brun\s+)((?:pnpm|npm|npx|yarn|git|docker|kubectl|helm|make|cargo|pip|uv|poetry|terraform|fly|flyctl|vercel|gh|aws|gcloud|bash|sh|python|node|curl|ssh|psql|alembic|rails|bundle|go|dotnet|mvn|gradle)\b[^,;]*)/i

function toolOf(step: string): string | undefined {
  const code = /`([^`]+)`/.exec(step)
  if (code) return code[1]?.trim()
  const cmd = COMMAND.exec(step.trim())
  return cmd ? cmd[1]?.trim().replace(/\s*[.]$/, '') : undefined
}

function cleanStep(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/[\s.;,]+$/, '')
    .trim()
}

function nameFrom(heading: string): { name: string; trigger?: string } | undefined {
  const trimmed = heading.trim().replace(/[:.]\s*$/, '')
  if (trimmed.length < 3 || trimmed.length > 120 || /\?$/.test(trimmed)) return undefined
  const trigger = /^(?:when(?:ever)?|before|after|if)\b/i.test(trimmed)
    ? trimmed.replace(/,.*$/, '')
    : undefined
  const m = HEADING.exec(trimmed)
  let core = (m?.[1] ?? trimmed).replace(/^(?:we|i|you)\s+/i, '').replace(/,.*$/, '')
  core = core.replace(/^(?:deploying|releasing)\b/i, (w) =>
    w.replace(/ing$/i, '').replace(/^releas$/i, 'release'),
  )
  if (!/[\p{L}]{3}/u.test(core)) return undefined
  const name = core.charAt(0).toUpperCase() + core.slice(1)
  return trigger ? { name, trigger } : { name }
}

function build(
  name: { name: string; trigger?: string },
  steps: string[],
  context: string,
): ExtractedProcedure | undefined {
  const clean = steps.map(cleanStep).filter((s) => s.length >= 2)
  if (clean.length < 2) return undefined
  const procedure: ExtractedProcedure = {
    name: name.name,
    description: `${name.name} in ${clean.length} steps: ${clean.join('; ')}`.slice(0, 400),
    steps: clean.map((text, i) => {
      const tool = toolOf(text)
      return tool ? { order: i + 1, text, tool } : { order: i + 1, text }
    }),
    entities: entityTokens(`${context}\n${clean.join('\n')}`).slice(0, 10),
  }
  if (name.trigger) procedure.trigger = name.trigger
  return procedure
}

function listProcedures(lines: readonly string[]): ExtractedProcedure[] {
  const out: ExtractedProcedure[] = []
  let i = 0
  while (i < lines.length) {
    if (!LIST_ITEM.test(lines[i] ?? '')) {
      i++
      continue
    }
    const items: { order: number; text: string }[] = []
    const start = i
    while (i < lines.length && LIST_ITEM.test(lines[i] ?? '')) {
      const m = LIST_ITEM.exec(lines[i] ?? '')
      items.push({ order: Number(m?.[1] ?? m?.[2] ?? items.length + 1), text: m?.[3] ?? '' })
      i++
    }
    const heading = [...lines.slice(Math.max(0, start - 2), start)].reverse().find((l) => l.trim() !== '')
    if (!heading || !HOW_TO.test(heading)) continue
    const name = nameFrom(heading.replace(/^\s*(?:user|assistant)\s*:\s*/i, ''))
    if (!name) continue
    const ordered = [...items].sort((a, b) => a.order - b.order).map((it) => it.text)
    const p = build(name, ordered, heading)
    if (p) out.push(p)
  }
  return out
}

function sequenceProcedures(text: string): ExtractedProcedure[] {
  const out: ExtractedProcedure[] = []
  const sentences = text.replace(/\n+/g, ' ').split(/(?<=[.!])\s+/)
  sentences.forEach((sentence, idx) => {
    const start = SEQUENCE_START.exec(sentence)
    if (!start || !SEQUENCE_SPLIT.test(sentence.slice(start.index))) return
    const lead = sentence
      .slice(0, start.index)
      .replace(/[,:]\s*$/, '')
      .trim()
    const previous = sentences[idx - 1] ?? ''
    const heading = lead.length >= 3 ? lead : /\b(?:how|to)\b/i.test(previous) ? previous : ''
    const name = heading ? nameFrom(heading) : undefined
    if (!name) return
    const body = sentence.slice(start.index + start[0].length)
    const steps = body.split(SEQUENCE_SPLIT).map((s) => s.replace(/^(?:and|,)\s*/i, ''))
    const p = build(name, steps, heading)
    if (p) out.push(p)
  })
  return out
}

/**
 * Finds procedures written as numbered or bulleted lists under a how-to heading ("To deploy to staging:"),
 * or as "first …, then …, finally …" sequences introduced by a goal ("To release, first …").
 */
export function proceduresByRules(text: string): ExtractedProcedure[] {
  const noFences = text.replace(/```[\s\S]*?(?:```|$)/g, '\n')
  const lines = noFences.split('\n')
  return [...listProcedures(lines), ...sequenceProcedures(noFences)]
}
