import { escapeHtml, SafeHtml } from './html'

const WORD = /[\p{L}\p{N}]+/gu
const MIN_TERM = 2

/** Words worth marking in a source message: the entity names' and predicate's words, minus tiny ones. */
export function termsOf(...names: readonly string[]): string[] {
  const words = names.flatMap((name) => name.toLowerCase().match(WORD) ?? [])
  return [...new Set(words.filter((w) => w.length >= MIN_TERM))]
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * Escapes `text` and wraps in `<mark>` the quoted evidence sentence when the text contains it, otherwise
 * every whole-word occurrence of `terms` (case-insensitive).
 */
export function markWords(text: string, terms: readonly string[], phrase?: string | null): SafeHtml {
  const spans: [number, number][] = []
  const exact = phrase?.trim()
  const at = exact ? text.toLowerCase().indexOf(exact.toLowerCase()) : -1
  if (exact && at !== -1) spans.push([at, at + exact.length])
  else if (terms.length > 0) {
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}])(?:${terms.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`,
      'giu',
    )
    for (const match of text.matchAll(pattern)) spans.push([match.index, match.index + match[0].length])
  }
  let out = ''
  let last = 0
  for (const [start, end] of spans) {
    out += `${escapeHtml(text.slice(last, start))}<mark>${escapeHtml(text.slice(start, end))}</mark>`
    last = end
  }
  return new SafeHtml(out + escapeHtml(text.slice(last)))
}
