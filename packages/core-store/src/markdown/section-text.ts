import { StoreError } from '../kernel/errors'

/** Section names: letters, digits, `_`, `.` and `-`, starting with a letter or digit. */
const SECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/
const ANY_MARKER = /<!--\s*HyMem:auto:/i

/** The comment lines that open and close a managed section. */
export function sectionMarkers(name: string): { start: string; end: string } {
  assertSectionName(name)
  return { start: `<!-- HyMem:auto:${name}:start -->`, end: `<!-- HyMem:auto:${name}:end -->` }
}

function assertSectionName(name: string): void {
  if (typeof name !== 'string' || !SECTION_NAME.test(name)) {
    throw new StoreError(
      'INVALID_INPUT',
      `Invalid Markdown section name ${JSON.stringify(name)}: use 1-64 letters, digits, "_", "." or "-".`,
    )
  }
}

function markerPattern(name: string, edge: 'start' | 'end'): RegExp {
  const escaped = name.replaceAll('.', '\\.')
  return new RegExp(`<!--[ \\t]*HyMem:auto:${escaped}:${edge}[ \\t]*-->`, 'g')
}

/** Where a section sits in a file's text: offsets of the markers and of the body between them. */
export interface SectionSpan {
  readonly start: number
  readonly bodyStart: number
  readonly bodyEnd: number
  readonly end: number
}

/**
 * Locates section `name` in `text`, or returns null when it is absent. A file whose markers do not pair up
 * (a start without an end, an end without a start, a section twice) is refused: guessing would risk
 * overwriting the human-written text after it.
 */
export function findSection(text: string, name: string, file: string): SectionSpan | null {
  assertSectionName(name)
  const starts = [...text.matchAll(markerPattern(name, 'start'))]
  const ends = [...text.matchAll(markerPattern(name, 'end'))]
  if (starts.length === 0 && ends.length === 0) return null
  const malformed = (problem: string) =>
    new StoreError(
      'INVALID_INPUT',
      `${file}: managed section "${name}" ${problem}. Fix the HyMem:auto:${name} markers by hand; HyMem will not guess where the section ends.`,
    )
  if (starts.length > 1 || ends.length > 1) throw malformed('appears more than once')
  const [startMatch] = starts
  const [endMatch] = ends
  if (startMatch === undefined) throw malformed('has an end marker but no start marker')
  if (endMatch === undefined) throw malformed('has a start marker but no end marker')
  if (endMatch.index < startMatch.index) throw malformed('has its end marker before its start marker')
  return {
    start: startMatch.index,
    bodyStart: startMatch.index + startMatch[0].length,
    bodyEnd: endMatch.index,
    end: endMatch.index + endMatch[0].length,
  }
}

/** The body between the markers without the line breaks that frame it, with `\n` line endings. */
export function sectionBody(text: string, span: SectionSpan): string {
  return text
    .slice(span.bodyStart, span.bodyEnd)
    .replace(/^\r?\n/, '')
    .replace(/\r?\n$/, '')
    .replaceAll('\r\n', '\n')
}

/** The line ending a file already uses: CRLF if its first line break is CRLF, LF otherwise. */
export function detectLineEnding(text: string): '\n' | '\r\n' {
  const lf = text.indexOf('\n')
  return lf > 0 && text[lf - 1] === '\r' ? '\r\n' : '\n'
}

/** Rejects a body that would break the file's structure (it must not contain section markers). */
export function assertSectionBody(body: string, name: string): void {
  if (typeof body !== 'string') {
    throw new StoreError('INVALID_INPUT', `The body of Markdown section "${name}" must be a string.`)
  }
  if (ANY_MARKER.test(body)) {
    throw new StoreError(
      'INVALID_INPUT',
      `The body of Markdown section "${name}" contains a "<!-- HyMem:auto:" marker, which would corrupt the file.`,
    )
  }
}

/**
 * Returns `text` with section `name` holding `body`: the body between existing markers is replaced and
 * nothing else changes; a missing section is appended after a blank line.
 */
export function replaceSection(text: string, name: string, body: string, file: string): string {
  assertSectionBody(body, name)
  const eol = detectLineEnding(text)
  const lines = body.replaceAll('\r\n', '\n').replaceAll('\n', eol)
  const inner = body === '' ? eol : `${eol}${lines}${eol}`
  const span = findSection(text, name, file)
  if (span !== null) return text.slice(0, span.bodyStart) + inner + text.slice(span.bodyEnd)
  const { start, end } = sectionMarkers(name)
  const block = `${start}${inner}${end}${eol}`
  if (text === '') return block
  const separator = text.endsWith(`${eol}${eol}`) ? '' : text.endsWith(eol) ? eol : `${eol}${eol}`
  return `${text}${separator}${block}`
}
