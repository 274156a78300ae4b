import { describe, expect, it } from 'vitest'
import { parseEpisodesAnswer } from './episodes'
import { _renumberSteps, parseProceduresAnswer } from './procedures'
import { parseRerankAnswer } from './rerank'
import { parseSummaryAnswer, validateSummary } from './summary'

describe('parseEpisodesAnswer', () => {
  it('keeps only known chunk ids and drops episodes left without any', () => {
    const r = parseEpisodesAnswer(
      JSON.stringify({
        episodes: [
          {
            title: 'Postgres migration',
            summary: 'Moved to Postgres.',
            outcome: 'done',
            entities: ['Postgres', 3, ''],
            chunk_ids: [3, 99, 1, 1],
          },
          { title: 'Ghost', summary: 'Invented.', chunk_ids: [42] },
          { title: '', summary: 'no title', chunk_ids: [1] },
        ],
      }),
      [1, 2, 3],
    )
    expect(r.episodes).toEqual([
      {
        title: 'Postgres migration',
        summary: 'Moved to Postgres.',
        outcome: 'done',
        entities: ['Postgres', '3'],
        chunkIds: [1, 3],
      },
    ])
    expect(r.dropped).toBe(2)
  })
})

describe('parseProceduresAnswer', () => {
  it('renormalises step order, skips bad steps and drops one-step procedures', () => {
    const r = parseProceduresAnswer(`Sure:
{"procedures": [
  {"name": "Deploy to staging", "description": null, "trigger": "before a release",
   "steps": [{"order": 3, "text": "fly deploy", "tool": "fly"}, {"order": 1, "text": "pnpm test"}, {"text": "build image"}, {"order": 2, "text": ""}, 17],
   "entities": ["Fly.io"]},
  {"name": "Lonely", "steps": ["only one"]}
]}`)
    expect(r.procedures).toEqual([
      {
        name: 'Deploy to staging',
        description: 'Deploy to staging',
        trigger: 'before a release',
        steps: [
          { order: 1, text: 'pnpm test' },
          { order: 2, text: 'fly deploy', tool: 'fly' },
          { order: 3, text: 'build image' },
        ],
        entities: ['Fly.io'],
      },
    ])
    expect(r.dropped).toBe(1)
  })

  it('accepts steps given as plain strings', () => {
    expect(_renumberSteps([{ text: 'a' }, { text: 'b', order: 0.5 }])).toEqual([
      { order: 1, text: 'b' },
      { order: 2, text: 'a' },
    ])
  })
})

describe('validateSummary', () => {
  it.each([
    ['', 'empty'],
    ['Did stuff.', 'too_short'],
    ['"The user migrated the database to Postgres."', 'quoted'],
    ['user: we moved to Postgres and it works now', 'quoted'],
    ['{"summary": "x"}', 'not_prose'],
    ['- migrated the database to Postgres today', 'not_prose'],
    [`The user ${'really '.repeat(80)}migrated.`, 'too_long'],
  ])('refuses %j as %s', (text, reason) => {
    expect(validateSummary(text)).toEqual({ ok: false, reason })
  })

  it('accepts and tidies a plain sentence', () => {
    expect(validateSummary('  The user moved  billing to Postgres.\n')).toEqual({
      ok: true,
      summary: 'The user moved billing to Postgres.',
    })
  })

  it('reads JSON or prose answers', () => {
    expect(parseSummaryAnswer('{"summary": "The team shipped the billing API to Fly.io."}')).toEqual({
      summary: 'The team shipped the billing API to Fly.io.',
    })
    expect(parseSummaryAnswer('{"summary": null}')).toEqual({ summary: null, rejected: 'empty' })
    expect(parseSummaryAnswer('The team shipped the billing API to Fly.io.').summary).not.toBeNull()
  })
})

describe('parseRerankAnswer', () => {
  it('clamps to 1..5, ignores unknown ids and keeps the first score per id', () => {
    const scores = parseRerankAnswer(
      '```json\n{"scores":[{"id":"a","score":9},{"id":"b","score":"0"},{"id":"zzz","score":5},{"id":"a","score":1},{"id":"c","score":3.3}]}\n```',
      ['a', 'b', 'c', 'd'],
    )
    expect([...scores]).toEqual([
      ['a', 5],
      ['b', 1],
      ['c', 3.5],
    ])
  })

  it('accepts an id → score object and returns nothing for garbage', () => {
    expect([...parseRerankAnswer('{"scores": {"a": 4}}', ['a'])]).toEqual([['a', 4]])
    expect(parseRerankAnswer('I refuse', ['a']).size).toBe(0)
  })
})
