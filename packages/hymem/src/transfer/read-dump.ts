import * as v from 'valibot'
import { HyMemError } from '../errors'
import { DUMP_FORMAT, DUMP_FORMAT_VERSION, type DumpRecord, RECORD } from './records'

const MAX_REPORTED_ERRORS = 5

/** Parses and validates every line first; any bad line aborts the import before a row is written. */
export async function readDump(lines: AsyncIterable<string> | Iterable<string>): Promise<DumpRecord[]> {
  const records: DumpRecord[] = []
  const errors: string[] = []
  let number = 0
  for await (const raw of lines) {
    number++
    const text = raw.trim()
    if (text === '') continue
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      errors.push(`line ${number}: not JSON`)
      continue
    }
    const parsed = v.safeParse(RECORD, value)
    if (!parsed.success) {
      const issue = parsed.issues[0]
      const path = issue ? v.getDotPath(issue) : null
      errors.push(`line ${number}: ${path ? `${path}: ` : ''}${issue?.message ?? 'invalid record'}`)
      continue
    }
    if (records.length === 0 && parsed.output.type !== 'header') {
      errors.push(
        `line ${number}: a dump starts with a ${DUMP_FORMAT} header line (was this written by \`hymem export\`?)`,
      )
      break
    }
    records.push(parsed.output)
  }
  if (records.length === 0 && errors.length === 0) errors.push(`empty input: expected a ${DUMP_FORMAT} dump`)
  if (errors.length > 0) {
    const more =
      errors.length > MAX_REPORTED_ERRORS ? ` (and ${errors.length - MAX_REPORTED_ERRORS} more)` : ''
    throw new HyMemError(
      'IMPORT_FAILED',
      `nothing imported, the dump is invalid (format ${DUMP_FORMAT} v${DUMP_FORMAT_VERSION}): ${errors.slice(0, MAX_REPORTED_ERRORS).join('; ')}${more}`,
    )
  }
  return records
}
