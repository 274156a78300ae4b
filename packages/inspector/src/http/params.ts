import { ISO_TIME_HINT, parseIsoTime } from '@hymem/core-store'
import { InspectorError } from './errors'

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

/** A query parameter with surrounding blanks removed; empty means absent. */
export function textParam(value: string | undefined): string | undefined {
  const text = value?.trim()
  return text === undefined || text === '' ? undefined : text
}

/**
 * An as-of parameter: a date (`2026-02-01`, meaning the end of that UTC day: what was known on it) or an
 * ISO-8601 time. Absent when empty.
 */
export function asOfParam(value: string | undefined, name = 'as of'): string | undefined {
  const text = textParam(value)
  if (text === undefined) return undefined
  const time = parseIsoTime(text)
  if (time === null)
    throw new InspectorError(400, `${name} must be a date such as 2026-05-01 or ${ISO_TIME_HINT}`)
  return DATE_ONLY.test(text) ? new Date(Date.parse(time) + 86_400_000 - 1).toISOString() : time
}

/** The date part of an as-of value, for a date field. */
export function dateOf(iso: string | undefined): string {
  return iso === undefined ? '' : iso.slice(0, 10)
}

export function intParam(
  value: string | undefined,
  name: string,
  bounds: { min: number; max: number; fallback: number },
): number {
  const text = textParam(value)
  if (text === undefined) return bounds.fallback
  const n = Number(text)
  if (!Number.isInteger(n) || n < bounds.min || n > bounds.max)
    throw new InspectorError(400, `${name} must be a whole number from ${bounds.min} to ${bounds.max}`)
  return n
}

/** A list of message ids (`1,2,3`). */
export function idListParam(value: string | undefined, name: string, max: number): number[] {
  const text = textParam(value)
  if (text === undefined) return []
  const ids = text.split(',').map((part) => Number(part.trim()))
  if (ids.length > max || !ids.every((id) => Number.isInteger(id) && id > 0))
    throw new InspectorError(400, `${name} must be up to ${max} comma-separated message ids`)
  return ids
}
