import { describe, expect, it } from 'vitest'
import { type Extractor, MARKER_KINDS, PREDICATES, validateSummary } from '../src/index'
import { expectExtractionError } from './expect-extraction-error'

const PREDICATE_SET = new Set<string>(PREDICATES)
const KIND_SET = new Set<string>(MARKER_KINDS)

const CHAT = `user: We switched from MySQL to Postgres last month and we deploy the API to Fly.io.
user: I'm working on MedFlow. Please be concise.
user: To deploy to staging:
1. Run the tests with pnpm test
2. Build the image with docker build
3. Push it with fly deploy`

function expectUsage(usage: { promptTokens: number; completionTokens: number }, llmCalls: number) {
  expect(Number.isInteger(llmCalls) && llmCalls >= 0).toBe(true)
  expect(usage.promptTokens).toBeGreaterThanOrEqual(0)
  expect(usage.completionTokens).toBeGreaterThanOrEqual(0)
  if (llmCalls === 0) expect(usage).toEqual({ promptTokens: 0, completionTokens: 0 })
}

/** The behaviour every {@link Extractor} must have; `create` is called per test. */
export function describeExtractorContract(label: string, create: () => Extractor | Promise<Extractor>): void {
  describe(`Extractor contract: ${label}`, () => {
    it('has a name and a prompt version', async () => {
      const x = await create()
      expect(x.name).toMatch(/\S/)
      expect(x.promptVersion).toMatch(/\S/)
    })

    it('returns well-formed facts from vocabulary only', async () => {
      const r = await (await create()).extractFacts({ text: CHAT })
      expect(r.triples.length).toBeGreaterThan(0)
      for (const t of r.triples) {
        expect(PREDICATE_SET.has(t.predicate)).toBe(true)
        expect([1, -1]).toContain(t.polarity)
        expect(t.subject.trim()).not.toBe('')
        expect(t.object.trim()).not.toBe('')
      }
      for (const m of r.markers) expect(KIND_SET.has(m.kind)).toBe(true)
      for (const e of r.entityTypes) expect(e.type).toMatch(/^[a-z_]+$/)
      expect(r.dropped.triples).toBeGreaterThanOrEqual(0)
      expect(r.dropped.markers).toBeGreaterThanOrEqual(0)
      expectUsage(r.usage, r.llmCalls)
    })

    it('gives each human author of speaker-labelled turns their own facts, and an agent none', async () => {
      const r = await (await create()).extractFacts({
        text: '',
        turns: [
          { peerId: 'alice', role: 'user', text: 'I prefer Neovim and I use Rust.' },
          { peerId: 'bob', role: 'user', text: 'I prefer VS Code. Alice uses Zig.' },
          { peerId: 'hermes', role: 'assistant', text: 'I prefer Emacs myself.' },
        ],
        peers: [{ id: 'alice', name: 'Alice' }],
      })
      const facts = r.triples.map((t) => `${t.subject} ${t.predicate} ${t.object}`)
      expect(facts).toEqual(
        expect.arrayContaining(['alice prefers Neovim', 'bob prefers VS Code', 'alice uses Zig']),
      )
      expect(r.triples.filter((t) => ['user', 'team'].includes(t.subject))).toEqual([])
      expect(facts.filter((f) => f.includes('Emacs'))).toEqual([])
      for (const t of r.triples.filter((t) => ['alice', 'bob'].includes(t.subject)))
        expect(t.subjectPeerId).toBe(t.subject)
      for (const m of r.markers) expect(['alice', 'bob']).toContain(m.peerId)
    })

    it('refuses malformed speaker labels with INVALID_INPUT', async () => {
      const extractor = await create()
      await expectExtractionError(
        extractor.extractFacts({
          text: 'x',
          turns: [{ peerId: 'alice', role: 'boss' as never, text: 'hi' }],
        }),
        'INVALID_INPUT',
      )
    })

    it('finds nothing in empty text', async () => {
      const r = await (await create()).extractFacts({ text: '   ' })
      expect(r.triples).toEqual([])
      expect(r.markers).toEqual([])
    })

    it('returns episodes pointing only at the given chunks', async () => {
      const chunks = [
        { id: 11, text: 'We switched from MySQL to Postgres because of JSON support.' },
        { id: 12, text: 'The Postgres migration finished and the MySQL box was shut down.' },
        { id: 13, text: 'Unrelated: please be concise in answers.' },
      ]
      const r = await (await create()).extractEpisodes({ sessionId: 's1', chunks })
      for (const e of r.episodes) {
        expect(e.title.trim()).not.toBe('')
        expect(e.summary.trim()).not.toBe('')
        expect(e.chunkIds.length).toBeGreaterThan(0)
        for (const id of e.chunkIds) expect([11, 12, 13]).toContain(id)
      }
      expectUsage(r.usage, r.llmCalls)
    })

    it('returns procedures with steps numbered 1..n', async () => {
      const r = await (await create()).extractProcedures({ text: CHAT })
      for (const p of r.procedures) {
        expect(p.name.trim()).not.toBe('')
        expect(p.steps.map((s) => s.order)).toEqual(p.steps.map((_, i) => i + 1))
      }
      expectUsage(r.usage, r.llmCalls)
    })

    it('returns a valid one-sentence summary or null', async () => {
      const r = await (await create()).summarizeSession({ transcript: CHAT })
      if (r.summary !== null) expect(validateSummary(r.summary)).toEqual({ ok: true, summary: r.summary })
      expectUsage(r.usage, r.llmCalls)
    })

    it('rejects with ABORTED on an aborted signal', async () => {
      const x = await create()
      const controller = new AbortController()
      controller.abort()
      for (const call of [
        () => x.extractFacts({ text: CHAT }, { signal: controller.signal }),
        () =>
          x.extractEpisodes(
            { sessionId: 's', chunks: [{ id: 1, text: CHAT }] },
            { signal: controller.signal },
          ),
        () => x.extractProcedures({ text: CHAT }, { signal: controller.signal }),
        () => x.summarizeSession({ transcript: CHAT }, { signal: controller.signal }),
      ]) {
        await expectExtractionError(call(), 'ABORTED')
      }
    })
  })
}
