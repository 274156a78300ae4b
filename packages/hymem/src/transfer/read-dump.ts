import * as v from 'valibot'
import { HyMemError } from '../errors'
import { DUMP_FORMAT, DUMP_FORMAT_VERSION, type DumpRecord, RECORD } from './records'

const MAX_REPORTED_ERRORS = 5

/**
 * Parses and validates a dump line by line, yielding each record as soon as it is read (a dump larger than
 * memory streams through). A bad line stops the stream: the lines after it are still checked, up to a few
 * errors, and then it throws `IMPORT_FAILED` naming them, so the caller's transaction rolls back.
 */
export async function* parseDump(
  lines: AsyncIterable<string> | Iterable<string>,
): AsyncGenerator<DumpRecord> {
  const errors: string[] = []
  let number = 0
  let records = 0
  for await (const raw of lines) {
    number++
    const text = raw.trim()
    if (text === '') continue
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      errors.push(`line ${number}: not JSON`)
      if (errors.length >= MAX_REPORTED_ERRORS) break
      continue
    }
    const parsed = v.safeParse(RECORD, value)
    if (!parsed.success) {
      const issue = parsed.issues[0]
      const path = issue ? v.getDotPath(issue) : null
      errors.push(`line ${number}: ${path ? `${path}: ` : ''}${issue?.message ?? 'invalid record'}`)
      if (errors.length >= MAX_REPORTED_ERRORS) break
      continue
    }
    if (records === 0 && parsed.output.type !== 'header') {
      errors.push(
        `line ${number}: a dump starts with a ${DUMP_FORMAT} header line (was this written by \`hymem export\`?)`,
      )
      break
    }
    records++
    if (errors.length === 0) yield parsed.output
  }
  if (records === 0 && errors.length === 0) errors.push(`empty input: expected a ${DUMP_FORMAT} dump`)
  if (errors.length > 0) {
    const more = errors.length >= MAX_REPORTED_ERRORS ? ' (and possibly more)' : ''
    throw new HyMemError(
      'IMPORT_FAILED',
      `nothing imported, the dump is invalid (format ${DUMP_FORMAT} v${DUMP_FORMAT_VERSION}): ${errors.join('; ')}${more}`,
    )
  }
}
