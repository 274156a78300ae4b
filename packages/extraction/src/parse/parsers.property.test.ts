import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MARKER_KINDS, PREDICATES } from '../vocabulary'
import { parseEpisodesAnswer } from './episodes'
import { parseFactsAnswer } from './facts'
import { parseProceduresAnswer } from './procedures'
import { parseRerankAnswer } from './rerank'
import { parseSummaryAnswer } from './summary'

const predicates = new Set<string>(PREDICATES)
const kinds = new Set<string>(MARKER_KINDS)

// Model answers: arbitrary text, arbitrary JSON, and JSON shaped like a facts answer with hostile values.
const hostileTriple = fc.record(
  {
    subject: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    predicate: fc.oneof(
      fc.constantFrom(...PREDICATES, 'owns', 'loves', 'USES', 'depends on', '__proto__'),
      fc.string(),
    ),
    object: fc.oneof(fc.string(), fc.array(fc.string())),
    polarity: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.boolean(), fc.constant(null)),
    value_numeric: fc.oneof(fc.double(), fc.string(), fc.constant(null)),
  },
  { requiredKeys: [] },
)
const answers = fc.oneof(
  fc.string(),
  fc.json(),
  fc
    .record({
      triples: fc.array(hostileTriple, { maxLength: 8 }),
      markers: fc.array(
        fc.record({
          kind: fc.oneof(fc.constantFrom(...MARKER_KINDS, 'mood'), fc.string()),
          statement: fc.string(),
        }),
        {
          maxLength: 4,
        },
      ),
    })
    .map((o) => `Sure! \`\`\`json\n${JSON.stringify(o)}\n\`\`\``),
)

describe('parsers on arbitrary model output', () => {
  it('never throw, and only ever return the locked vocabulary with polarity ±1', () => {
    fc.assert(
      fc.property(answers, (text) => {
        const r = parseFactsAnswer(text)
        for (const t of r.triples) {
          expect(predicates.has(t.predicate)).toBe(true)
          expect([1, -1]).toContain(t.polarity)
          expect(typeof t.subject === 'string' && t.subject.length > 0).toBe(true)
          expect(typeof t.object === 'string' && t.object.length > 0).toBe(true)
          if (t.valueNumeric !== undefined) expect(Number.isFinite(t.valueNumeric)).toBe(true)
        }
        for (const m of r.markers) expect(kinds.has(m.kind)).toBe(true)
        expect(r.dropped.triples).toBeGreaterThanOrEqual(0)
      }),
      { numRuns: 300 },
    )
  })

  it('keep episodes, procedures, summaries and rerank scores well-formed', () => {
    fc.assert(
      fc.property(answers, (text) => {
        for (const e of parseEpisodesAnswer(text, [1, 2, 3]).episodes) {
          expect(e.chunkIds.every((id) => [1, 2, 3].includes(id))).toBe(true)
        }
        for (const p of parseProceduresAnswer(text).procedures) {
          expect(p.steps.map((s) => s.order)).toEqual(p.steps.map((_, i) => i + 1))
        }
        const s = parseSummaryAnswer(text).summary
        if (s !== null) expect(s.length).toBeLessThanOrEqual(400)
        for (const score of parseRerankAnswer(text, ['a', 'b']).values()) {
          expect(score).toBeGreaterThanOrEqual(1)
          expect(score).toBeLessThanOrEqual(5)
        }
      }),
      { numRuns: 300 },
    )
  })
})
