import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createRulesExtractor } from '../src/index'
import { type LabelledCase, ratio, scoreCases } from './score'

const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, 'fixtures/rules-sentences.json'), 'utf8'),
) as {
  cases: LabelledCase[]
}

describe('rules extractor on the labelled fixture set', () => {
  it('has at least 80 sentences, including traps that expect nothing', () => {
    expect(fixture.cases.length).toBeGreaterThanOrEqual(80)
    expect(fixture.cases.filter((c) => c.triples.length === 0).length).toBeGreaterThanOrEqual(25)
  })

  it('reaches precision >= 0.95 and recall >= 0.9 on triples, and >= 0.9 on markers', async () => {
    const extractor = createRulesExtractor()
    const predictions = new Map<string, Awaited<ReturnType<typeof extractor.extractFacts>>>()
    for (const c of fixture.cases) predictions.set(c.text, await extractor.extractFacts({ text: c.text }))
    const result = scoreCases(fixture.cases, (text) => predictions.get(text) ?? { triples: [], markers: [] })
    const triples = ratio(result.triples)
    const markers = ratio(result.markers)
    // The misses are listed in the failure message to make regressions easy to read.
    expect(triples.precision, result.errors.join('\n')).toBeGreaterThanOrEqual(0.95)
    expect(triples.recall, result.errors.join('\n')).toBeGreaterThanOrEqual(0.9)
    expect(markers.precision, result.errors.join('\n')).toBeGreaterThanOrEqual(0.9)
    expect(markers.recall, result.errors.join('\n')).toBeGreaterThanOrEqual(0.9)
  })
})

const HELD_OUT = ['rules-heldout', 'rules-heldout-2', 'rules-heldout-3', 'rules-heldout-4', 'rules-heldout-5']

describe('rules extractor on the held-out rounds', () => {
  it.each(HELD_OUT)('%s keeps triple precision >= 0.9 and recall >= 0.85', async (name) => {
    const { cases } = JSON.parse(
      readFileSync(join(import.meta.dirname, `fixtures/${name}.json`), 'utf8'),
    ) as {
      cases: LabelledCase[]
    }
    const extractor = createRulesExtractor()
    const predictions = new Map<string, Awaited<ReturnType<typeof extractor.extractFacts>>>()
    for (const c of cases) predictions.set(c.text, await extractor.extractFacts({ text: c.text }))
    const result = scoreCases(cases, (text) => predictions.get(text) ?? { triples: [], markers: [] })
    const triples = ratio(result.triples)
    expect(triples.precision, result.errors.join('\n')).toBeGreaterThanOrEqual(0.9)
    expect(triples.recall, result.errors.join('\n')).toBeGreaterThanOrEqual(0.85)
  })
})
