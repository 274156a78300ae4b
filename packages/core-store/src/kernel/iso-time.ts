import * as v from 'valibot'

const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i

/**
 * Parses an ISO-8601 date (`2026-05-01`) or date-time (`2026-05-01T09:30`, `…:00Z`, `…+02:00`) into the
 * stored form, `Date#toISOString()`. A time without a zone is UTC. Impossible calendar dates (`2026-02-30`)
 * and anything that is not ISO-8601 (`March 7`) give `null`.
 *
 * @example
 * parseIsoTime('2026-05-01T11:30:00+02:00') // '2026-05-01T09:30:00.000Z'
 * parseIsoTime('yesterday') // null
 */
export function parseIsoTime(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const parts = ISO_TIME.exec(value.trim())
  if (!parts) return null
  const [, year, month, day, hour, , , zone] = parts
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)))
  if (date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day)) return null
  if (hour !== undefined && Number(hour) > 23) return null
  const text = value.trim().replace(' ', 'T')
  const normalised = hour === undefined ? `${text}T00:00:00Z` : zone === undefined ? `${text}Z` : text
  const time = Date.parse(normalised)
  return Number.isNaN(time) ? null : new Date(time).toISOString()
}

/** The message every surface shows for a value that is not an ISO-8601 time. */
export const ISO_TIME_HINT = 'an ISO-8601 time such as 2026-05-01T09:30:00Z'

/** A valibot schema for {@link parseIsoTime}: validates and outputs the stored `toISOString()` form. */
export const isoTimeSchema = v.pipe(
  v.string(),
  v.check((text) => parseIsoTime(text) !== null, `must be ${ISO_TIME_HINT}`),
  v.transform((text) => parseIsoTime(text)!),
)
