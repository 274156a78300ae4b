import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createRulesExtractor, type ExtractedTriple } from '../src/index'
import {
  asLabelled,
  type LabelledCase,
  markerLabel,
  ratio,
  type SpeakerCase,
  type SpeakerRound,
  scoreCases,
} from './score'

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

const HELD_OUT = [
  'rules-heldout',
  'rules-heldout-2',
  'rules-heldout-3',
  'rules-heldout-4',
  'rules-heldout-5',
  'rules-heldout-6',
  'rules-heldout-7',
]

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

const SPEAKER_ROUNDS = ['rules-heldout-speakers', 'rules-heldout-speakers-2']

describe('rules extractor on speaker-labelled chunks', () => {
  const read = (name: string) =>
    JSON.parse(readFileSync(join(import.meta.dirname, `fixtures/${name}.json`), 'utf8')) as SpeakerRound

  it('has at least 30 held-out chunks with two and three humans, an agent, quotes, "you" and "we"', () => {
    const { cases } = read('rules-heldout-speakers')
    expect(cases.length).toBeGreaterThanOrEqual(30)
    const humans = (c: SpeakerCase) =>
      new Set(c.turns.filter((t) => t.role === 'user').map((t) => t.peerId)).size
    expect(cases.some((c) => humans(c) === 2)).toBe(true)
    expect(cases.some((c) => humans(c) === 3)).toBe(true)
    expect(cases.some((c) => c.turns.some((t) => t.role === 'assistant'))).toBe(true)
    for (const word of [/"/, /\byou\b/i, /\bwe\b/i, /\bsays\b|\bsaid\b|\btold\b/])
      expect(cases.some((c) => c.turns.some((t) => word.test(t.text)))).toBe(true)
  })

  it.each(SPEAKER_ROUNDS)(
    '%s keeps triple and marker precision >= 0.9 and triple recall >= 0.75',
    async (name) => {
      const round = read(name)
      const extractor = createRulesExtractor()
      const predictions = new Map<string, { triples: ExtractedTriple[]; markers: { kind: string }[] }>()
      for (const c of round.cases) {
        const r = await extractor.extractFacts({ text: '', turns: c.turns, peers: round.peers })
        predictions.set(c.note, { triples: r.triples, markers: r.markers.map(markerLabel) })
      }
      const result = scoreCases(
        round.cases.map(asLabelled),
        (note) => predictions.get(note) ?? { triples: [], markers: [] },
      )
      const triples = ratio(result.triples)
      expect(triples.precision, result.errors.join('\n')).toBeGreaterThanOrEqual(0.9)
      expect(triples.recall, result.errors.join('\n')).toBeGreaterThanOrEqual(0.75)
      expect(ratio(result.markers).precision, result.errors.join('\n')).toBeGreaterThanOrEqual(0.9)
    },
  )

  it('reads every labelled sentence of the plain rounds, as one human turn, exactly like plain text with the speaker id', async () => {
    const extractor = createRulesExtractor()
    const asAuthor = (s: string) => (s === 'user' || s === 'team' ? 'p1' : s)
    for (const name of ['rules-sentences', ...HELD_OUT]) {
      const { cases } = JSON.parse(
        readFileSync(join(import.meta.dirname, `fixtures/${name}.json`), 'utf8'),
      ) as {
        cases: LabelledCase[]
      }
      for (const c of cases) {
        const plain = await extractor.extractFacts({ text: c.text })
        const labelled = await extractor.extractFacts({
          text: c.text,
          turns: [
            { peerId: 'p1', role: 'user', text: c.text },
            { peerId: 'agent', role: 'assistant', text: 'Noted.' },
          ],
        })
        const key = (t: ExtractedTriple) => [t.subject, t.predicate, t.object, t.polarity]
        expect(labelled.triples.map(key), c.text).toEqual(
          plain.triples.map((t) => [asAuthor(t.subject), ...key(t).slice(1)]),
        )
        expect(
          labelled.markers.map((m) => [m.kind, m.statement, m.peerId]),
          c.text,
        ).toEqual(plain.markers.map((m) => [m.kind, m.statement, 'p1']))
      }
    }
  })
})
