import { parseIsoTime } from '@hymem/core-store'
import { InvalidArgumentError } from 'commander'

/** Commander argument parser for whole numbers ≥ 1 (a bad value is a usage error, exit 2). */
export function parsePositiveInt(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) {
    throw new InvalidArgumentError('expected a whole number of at least 1.')
  }
  return Number(value)
}

/** Commander argument parser for a TCP port (0 lets the system pick a free one). */
export function parsePort(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) > 65_535) {
    throw new InvalidArgumentError('expected a port from 0 to 65535.')
  }
  return Number(value)
}

/** Commander argument parser for an ISO-8601 time or date (`2026-03-01`, `2026-03-01T12:00:00Z`). */
export function parseTime(value: string): string {
  const parsed = parseIsoTime(/^\d{4}-\d{2}-\d{2}$/.test(value.trim()) ? `${value.trim()}T00:00:00Z` : value)
  if (parsed === null) throw new InvalidArgumentError('expected a date or ISO-8601 time, e.g. 2026-03-01.')
  return parsed
}
