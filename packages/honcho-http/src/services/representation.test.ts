import type { Conclusion } from '@hymem/core-store'
import { describe, expect, it } from 'vitest'
import { renderRepresentation } from './representation'

const row = (id: string, level: string, content: string, at: string, timesDerived = 1): Conclusion => ({
  id,
  content,
  observerId: 'a',
  observedId: 'b',
  sessionId: null,
  level,
  sourceIds: [],
  timesDerived,
  metadata: {},
  createdAt: at,
})

describe('renderRepresentation (§7.3)', () => {
  it('renders an empty string for no conclusions', () => {
    expect(renderRepresentation([], () => [])).toBe('')
  })

  it('groups by level, oldest first, with premises and pattern confidence', () => {
    const rows = [
      row('2', 'explicit', 'Bob likes tea', '2024-01-02T10:00:00.000Z'),
      row('1', 'explicit', 'Bob lives in Ghent', '2024-01-01T09:30:00.000Z'),
      row('3', 'deductive', 'Bob drinks tea at home in Ghent', '2024-01-03T00:00:00.000Z'),
      row('4', 'inductive', 'Bob is a creature of habit', '2024-01-04T00:00:00.000Z', 3),
      row('5', 'contradiction', 'Bob said he hates tea', '2024-01-05T00:00:00.000Z'),
    ]
    const text = renderRepresentation(rows, (r) =>
      r.id === '3' ? ['Bob likes tea', 'Bob lives in Ghent'] : [],
    )
    expect(text).toMatchInlineSnapshot(`
      "## Explicit Observations

      [2024-01-01 09:30:00] Bob lives in Ghent
      [2024-01-02 10:00:00] Bob likes tea

      ## Deductive Observations

      [2024-01-03 00:00:00] Bob drinks tea at home in Ghent
         Premises:
         - Bob likes tea
         - Bob lives in Ghent

      ## Inductive Observations

       **Pattern** [high]: Bob is a creature of habit

      ## Contradictions

      [2024-01-05 00:00:00] Bob said he hates tea"
    `)
  })
})
