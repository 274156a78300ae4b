import type { TokenCounter } from '@hymem/core-store'
import type { ContextLine } from './render'

/** Most of the budget the profile (USER.md) and the insights (MEMORY.md) may each take. */
const PROFILE_SHARE = 0.25
const ITEMS_HEADER = '## Relevant memory (best first)'
/** A whole-line HTML comment, such as the markers of a managed Markdown section. */
const COMMENT_LINE = /^\s*<!--.*-->\s*$/

export interface PackInput {
  /** USER.md: who the user is. */
  readonly userMd: string
  /** MEMORY.md: insights about the user and their work. */
  readonly memoryMd: string
  /** The ranked items, best first. */
  readonly lines: readonly ContextLine[]
}

/** A context block and the items that did not fit into it. */
export interface PackedContext {
  readonly text: string
  /** Tokens of `text`, by the same counter as the budget. */
  readonly tokens: number
  /** Items left out, each with the tokens its line would have taken. */
  readonly dropped: readonly { readonly line: ContextLine; readonly tokens: number }[]
}

interface Section {
  readonly header: string
  readonly lines: string[]
}

/**
 * One text block within `budget` tokens (counted by `count` over the whole block): the profile and the
 * insights first (each at most a quarter of the budget, cut at a line), then the ranked items in order.
 * An item that does not fit is left out (and reported in `dropped`); later, smaller items may still fit.
 */
export function packContext(input: PackInput, budget: number, count: TokenCounter): PackedContext {
  const cost = (line: string) => count(`${line}\n`)
  const sections: Section[] = []
  let used = 0
  for (const [header, markdown] of [
    ['## Profile', input.userMd],
    ['## Insights', input.memoryMd],
  ] as const) {
    const share = Math.min(Math.floor(budget * PROFILE_SHARE), budget - used)
    const section = fill(header, profileLines(markdown), share, cost)
    if (section) {
      sections.push(section.section)
      used += section.tokens + 1
    }
  }
  const dropped: { line: ContextLine; tokens: number }[] = []
  const items: Section = { header: ITEMS_HEADER, lines: [] }
  const kept: ContextLine[] = []
  let itemTokens = cost(ITEMS_HEADER)
  for (const line of input.lines) {
    const tokens = cost(line.text)
    if (used + itemTokens + tokens <= budget) {
      items.lines.push(line.text)
      kept.push(line)
      itemTokens += tokens
    } else {
      dropped.push({ line, tokens })
    }
  }
  if (items.lines.length > 0) sections.push(items)

  // The sum of the lines' counts is an estimate; the count of the whole block decides.
  let text = assemble(sections)
  let tokens = count(text)
  while (tokens > budget) {
    const section = sections.at(-1)
    if (!section) break
    section.lines.pop()
    const item = section === items ? kept.pop() : undefined
    if (item) dropped.push({ line: item, tokens: cost(item.text) })
    if (section.lines.length === 0) sections.pop()
    text = assemble(sections)
    tokens = count(text)
  }
  return { text, tokens, dropped }
}

/** A section of as many `lines` as fit in `budget` tokens (header included), or null when none fits. */
function fill(
  header: string,
  lines: readonly string[],
  budget: number,
  cost: (line: string) => number,
): { section: Section; tokens: number } | null {
  let tokens = cost(header)
  const kept: string[] = []
  for (const line of lines) {
    const next = cost(line)
    if (tokens + next > budget) break
    kept.push(line)
    tokens += next
  }
  return kept.length === 0 ? null : { section: { header, lines: kept }, tokens }
}

function profileLines(markdown: string): string[] {
  return markdown
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !COMMENT_LINE.test(line))
}

function assemble(sections: readonly Section[]): string {
  return sections.map((section) => [section.header, ...section.lines].join('\n')).join('\n\n')
}
