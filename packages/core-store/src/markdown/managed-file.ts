import { readFile } from 'node:fs/promises'
import { StoreError } from '../kernel/errors'
import { writeFileAtomic } from './atomic-write'
import {
  assertSectionBody,
  findSection,
  replaceSection,
  type SectionSpan,
  sectionBody,
  sectionMarkers,
} from './section-text'

// Files are handled as latin1 text, one character per byte, so that every byte outside a section (even
// bytes that are not valid UTF-8) is written back unchanged; only section bodies are decoded as UTF-8.
const toBytesText = (utf8: string) => Buffer.from(utf8, 'utf8').toString('latin1')
const fromBytesText = (bytes: string) => Buffer.from(bytes, 'latin1').toString('utf8')

async function readBytesText(file: string): Promise<string> {
  try {
    return (await readFile(file)).toString('latin1')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return ''
    throw new StoreError('INVALID_INPUT', `Cannot read ${file}: ${(error as Error).message}`, {
      cause: error,
    })
  }
}

/** The whole text of a Markdown file HyMem manages (MEMORY.md, USER.md), or `''` when it does not exist. */
export async function readManagedFile(file: string): Promise<string> {
  return fromBytesText(await readBytesText(file))
}

/**
 * The body of the managed section `name` (`<!-- HyMem:auto:<name>:start -->` … `:end -->`), with `\n` line
 * endings, or `null` when the file or the section does not exist. Throws `StoreError('INVALID_INPUT')`
 * when the section's markers do not pair up.
 */
export async function readSection(file: string, name: string): Promise<string | null> {
  const text = await readBytesText(file)
  const span = findSection(text, name, file)
  return span === null ? null : fromBytesText(sectionBody(text, span))
}

/**
 * The text of a managed file without section `name` (its markers and body): what people wrote around it.
 * `''` when the file does not exist; the whole text when the section is absent or its markers do not pair
 * up (a reader shows a broken file as it is; only writers refuse it).
 */
export async function readOutsideSection(file: string, name: string): Promise<string> {
  sectionMarkers(name)
  const text = await readBytesText(file)
  let span: SectionSpan | null
  try {
    span = findSection(text, name, file)
  } catch (error) {
    if (!(error instanceof StoreError)) throw error
    span = null
  }
  return fromBytesText(span === null ? text : text.slice(0, span.start) + text.slice(span.end))
}

/**
 * Sets the body of the managed section `name`, leaving every byte outside it untouched (human edits stay).
 * Appends the section when it is missing and creates the file and its directory when needed. The write is
 * atomic (temporary file, fsync, rename); concurrent writers never leave a torn file, the last one wins.
 * CRLF files stay CRLF. A section with a start marker but no end marker is refused, not guessed at.
 *
 * @example
 * ```ts
 * await writeSection(join(root, 'USER.md'), 'profile', '- prefers uv over pip')
 * await readSection(join(root, 'USER.md'), 'profile') // '- prefers uv over pip'
 * ```
 */
export async function writeSection(file: string, name: string, body: string): Promise<void> {
  sectionMarkers(name)
  assertSectionBody(body, name)
  const before = await readBytesText(file)
  const after = replaceSection(before, name, toBytesText(body), file)
  if (after === before) return
  await writeFileAtomic(file, Buffer.from(after, 'latin1'))
}
