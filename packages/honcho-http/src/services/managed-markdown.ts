/**
 * USER.md / MEMORY.md as text for an agent's prompt. Those files hold HyMem-managed sections between
 * `<!-- HyMem:auto:<name>:start -->` / `:end -->` comment lines and dreaming's bullet format
 * (`- [preference] (alice) I prefer tea ×2`); neither belongs in a Honcho summary, card or prompt.
 */

/** Any HTML comment, including HyMem's section markers; an unclosed one runs to the end of the text. */
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g
const HEADING = /^#{1,6}\s/
const BULLET = /^(?:[-*+]|\d+[.)])\s+/
/** A dreaming profile entry: `[kind] (peer) statement ×N` (peer and count optional). */
const PROFILE_ENTRY = /^\[([^\]\n]+)\]\s+(?:\(([^)\n]+)\)\s+)?(.+?)(?:\s+×\d+)?$/

function sentence(text: string): string {
  return /[.!?…:;]$/.test(text) ? text : `${text}.`
}

function statement(item: string): string {
  const entry = PROFILE_ENTRY.exec(item)
  if (!entry) return sentence(item)
  const [, kind = '', peer, text = ''] = entry
  const label = `${kind.charAt(0).toUpperCase()}${kind.slice(1)}${peer ? ` (${peer})` : ''}`
  return `${label}: ${sentence(text)}`
}

/**
 * The statements of a managed Markdown file, one plain sentence each: comments (section markers included)
 * and headings are dropped, list bullets removed, profile entries rendered as `Kind (peer): statement.`,
 * and wrapped paragraph lines joined. Empty sections contribute nothing.
 */
export function markdownStatements(markdown: string): string[] {
  const statements: string[] = []
  let paragraph: string[] = []
  const flush = () => {
    if (paragraph.length > 0) statements.push(sentence(paragraph.join(' ')))
    paragraph = []
  }
  for (const raw of markdown.replace(HTML_COMMENT, '').split(/\r?\n/)) {
    const line = raw.replace(/\s+/g, ' ').trim()
    if (line === '' || HEADING.test(line)) {
      flush()
      continue
    }
    if (BULLET.test(line)) {
      flush()
      const item = line.replace(BULLET, '').trim()
      if (item !== '') statements.push(statement(item))
      continue
    }
    paragraph.push(line)
  }
  flush()
  return statements
}

/** {@link markdownStatements} as one paragraph of prose; `''` when the file has no statement. */
export function markdownProse(markdown: string): string {
  return markdownStatements(markdown).join(' ')
}
