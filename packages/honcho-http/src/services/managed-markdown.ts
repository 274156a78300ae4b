import type { ProfileData, ProfileEntry } from 'hymem'

/**
 * USER.md / MEMORY.md as plain sentences for a Honcho summary, card or prompt: dreaming's profile entries
 * and insights come typed from the facade; only the hand-written rest of the files is Markdown, whose
 * comments, headings and list bullets have no place there either.
 */

/** Any HTML comment, including stray HyMem section markers; an unclosed one runs to the end of the text. */
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g
const HEADING = /^#{1,6}\s/
const BULLET = /^(?:[-*+]|\d+[.)])\s+/

function sentence(text: string): string {
  return /[.!?…:;]$/.test(text) ? text : `${text}.`
}

/**
 * The statements of hand-written Markdown, one plain sentence each: comments and headings are dropped, list
 * bullets removed and wrapped paragraph lines joined.
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
      if (item !== '') statements.push(sentence(item))
      continue
    }
    paragraph.push(line)
  }
  flush()
  return statements
}

/** `Kind (peer): statement.`; the peer is named only when the profile describes more than one. */
function entryStatement(entry: ProfileEntry, namePeer: boolean): string {
  const kind = `${entry.kind.charAt(0).toUpperCase()}${entry.kind.slice(1)}`
  const peer = namePeer && entry.peerId !== '' ? ` (${entry.peerId})` : ''
  return `${kind}${peer}: ${sentence(entry.statement.replace(/\s+/g, ' ').trim())}`
}

/** USER.md as sentences: the hand-written statements, then one per profile entry, strongest first. */
export function userStatements(data: ProfileData): string[] {
  const namePeers = new Set(data.entries.map((entry) => entry.peerId)).size > 1
  return [
    ...markdownStatements(data.userNotes),
    ...data.entries.map((entry) => entryStatement(entry, namePeers)),
  ]
}

/** MEMORY.md as sentences: the hand-written statements, then one per insight. */
export function memoryStatements(data: ProfileData): string[] {
  return [...markdownStatements(data.memoryNotes), ...data.insights.map((insight) => sentence(insight.text))]
}
