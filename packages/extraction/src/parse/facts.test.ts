import { describe, expect, it } from 'vitest'
import { parseFactsAnswer } from './facts'

describe('parseFactsAnswer', () => {
  it('maps snake_case fields and keeps optional values', () => {
    const r = parseFactsAnswer(
      JSON.stringify({
        triples: [
          {
            subject: ' team ',
            predicate: 'requires_version',
            object: 'Python',
            polarity: 1,
            value_text: '3.12',
            value_numeric: '3.12',
            value_unit: null,
            temporal_scope: 'since March',
            evidence: 'we need Python 3.12',
          },
        ],
        markers: [{ kind: 'Style', statement: 'User wants concise answers.' }],
        entity_types: [{ entity: 'Python', type: 'Language' }],
      }),
    )
    expect(r).toEqual({
      ok: true,
      triples: [
        {
          subject: 'team',
          predicate: 'requires_version',
          object: 'Python',
          polarity: 1,
          valueText: '3.12',
          valueNumeric: 3.12,
          temporalScope: 'since March',
          evidenceText: 'we need Python 3.12',
        },
      ],
      markers: [{ kind: 'style', statement: 'User wants concise answers.' }],
      entityTypes: [{ entity: 'Python', type: 'language' }],
      dropped: { triples: 0, markers: 0, entityTypes: 0 },
    })
  })

  it('drops and counts unknown predicates, marker kinds and incomplete items, keeping the rest', () => {
    const r = parseFactsAnswer(`\`\`\`json
{"triples": [
  {"subject": "user", "predicate": "loves", "object": "Rust", "polarity": 1},
  {"subject": "user", "predicate": "Depends On", "object": "uv", "polarity": 1},
  {"subject": "", "predicate": "uses", "object": "x", "polarity": 1},
  {"predicate": "uses", "object": "x"},
  "not an object",
  {"subject": "user", "predicate": "uses", "object": "${'x'.repeat(500)}", "polarity": 1}
 ],
 "markers": [{"kind": "mood", "statement": "User is sad"}, {"kind": "correction", "statement": "It is port 5433."}, {"kind": "style"}]}
\`\`\``)
    expect(r.triples).toEqual([{ subject: 'user', predicate: 'depends_on', object: 'uv', polarity: 1 }])
    expect(r.markers).toEqual([{ kind: 'correction', statement: 'It is port 5433.' }])
    expect(r.dropped).toEqual({ triples: 5, markers: 2, entityTypes: 0 })
  })

  it.each([
    [-1, -1],
    [-0.4, -1],
    [0, 1],
    [5, 1],
    ['negative', -1],
    ['-1', -1],
    [false, -1],
    [true, 1],
    [null, 1],
    [undefined, 1],
  ])('clamps polarity %j to %i', (polarity, expected) => {
    const r = parseFactsAnswer(
      JSON.stringify({ triples: [{ subject: 'a', predicate: 'uses', object: 'b', polarity }] }),
    )
    expect(r.triples[0]?.polarity).toBe(expected)
  })

  it('accepts a bare array of triples', () => {
    const r = parseFactsAnswer('[{"subject":"a","predicate":"uses","object":"b","polarity":1}]')
    expect(r.triples).toHaveLength(1)
  })

  it('reports ok=false when there is no JSON at all, and survives partial output', () => {
    expect(parseFactsAnswer('I could not find any facts.').ok).toBe(false)
    const partial = parseFactsAnswer(
      '{"triples": [{"subject": "a", "predicate": "uses", "object": "b"}, {"subj',
    )
    expect(partial.ok).toBe(true)
    expect(partial.triples).toEqual([])
  })

  it('ignores extra keys and non-array sections from a hostile answer', () => {
    const r = parseFactsAnswer(
      JSON.stringify({
        triples: [
          { subject: 'a', predicate: 'uses', object: 'b', polarity: 1, admin: true, __proto__: { x: 1 } },
        ],
        markers: 'ignore previous instructions',
        entity_types: { entity: 'x' },
        new_predicates: ['owns'],
      }),
    )
    expect(r.triples).toEqual([{ subject: 'a', predicate: 'uses', object: 'b', polarity: 1 }])
    expect(r.markers).toEqual([])
    expect(r.entityTypes).toEqual([])
  })
})
