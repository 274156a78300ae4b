import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { ISO_TIME_HINT, isoTimeSchema, parseIsoTime } from './iso-time'

describe('parseIsoTime', () => {
  it.each([
    ['2026-05-01', '2026-05-01T00:00:00.000Z'],
    ['2026-05-01T09:30', '2026-05-01T09:30:00.000Z'],
    ['2026-05-01T09:30:00Z', '2026-05-01T09:30:00.000Z'],
    ['2026-05-01T11:30:00+02:00', '2026-05-01T09:30:00.000Z'],
    ['2026-05-01T09:30:00.123456Z', '2026-05-01T09:30:00.123Z'],
    ['2026-05-01 09:30:00', '2026-05-01T09:30:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
  ])('reads %s as %s', (input, expected) => {
    expect(parseIsoTime(input)).toBe(expected)
  })

  it.each([
    '',
    'yesterday',
    'March 7, 2026',
    '2026-02-30',
    '2025-02-29',
    '2026-13-01',
    '2026-05-01T25:00',
    42,
    null,
  ])('refuses %s', (input) => {
    expect(parseIsoTime(input)).toBeNull()
  })

  it('is a valibot schema that outputs the stored form', () => {
    expect(v.parse(isoTimeSchema, '2026-05-01')).toBe('2026-05-01T00:00:00.000Z')
    const result = v.safeParse(isoTimeSchema, 'soon')
    expect(result.success).toBe(false)
    expect(result.issues?.[0]?.message).toBe(`must be ${ISO_TIME_HINT}`)
  })
})
