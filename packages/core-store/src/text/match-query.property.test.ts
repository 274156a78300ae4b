import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FTS5_TOKENIZE } from './fts5-tokenizer'
import { fullTextIndexText } from './index-text'
import { buildMatchQuery, type MatchQueryOptions } from './match-query'
import { ENGLISH_STOP_WORDS } from './stop-words'
import { tokenizeForFts } from './tokenize'

const FTS_FRAGMENTS = [
  '"',
  '""',
  "'",
  '*',
  ':',
  'body:',
  '-',
  '^',
  '+',
  '(',
  ')',
  '{',
  '}',
  ',',
  '.',
  'NEAR',
  'NEAR(',
  'AND',
  'OR',
  'NOT',
  'and',
  'or',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\u0000',
  '\u001f',
  '\u007f',
  '😀',
  '🙂',
  '👩‍👩‍👧',
  '中文',
  'é',
  'e\u0301',
  '\u0301',
  '\ud800',
  '\udc00',
  'ß',
  'İ',
  'x',
  'the',
  'redis',
  '42',
  '%',
  '_',
  '\\',
  '\u200b',
]

const operatorSoup = fc
  .array(fc.constantFrom(...FTS_FRAGMENTS), { maxLength: 30 })
  .map((parts) => parts.join(''))
const loneSurrogates = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
})

const TEXTS: [string, fc.Arbitrary<string>][] = [
  ['fc.string (ascii)', fc.string()],
  ['full Unicode code points', fc.string({ unit: 'binary' })],
  ['Unicode graphemes', fc.string({ unit: 'grapheme' })],
  ['UTF-16 code units incl. lone surrogates', loneSurrogates],
  ['FTS5 operator fragments', operatorSoup],
]

const OPTIONS = fc.record(
  {
    mode: fc.constantFrom<'or' | 'and'>('or', 'and'),
    maxTerms: fc.integer({ min: 1, max: 64 }),
    stopWords: fc.constant(ENGLISH_STOP_WORDS),
    prefixLastTerm: fc.boolean(),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<MatchQueryOptions>

describe('buildMatchQuery against a real FTS5 table', () => {
  let dir: string
  let db: Database.Database
  let insert: Database.Statement<[string]>
  let matchRow: Database.Statement<[string, number | bigint], { rowid: number }>

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hymem-'))
    db = new Database(join(dir, 'fts.sqlite'))
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = OFF')
    db.exec(`CREATE VIRTUAL TABLE docs USING fts5(body, tokenize = "${FTS5_TOKENIZE}")`)
    // as HyMem's triggers index it
    const indexed = db.prepare<[string]>('INSERT INTO docs(body) VALUES (?)')
    insert = { run: (text: string) => indexed.run(fullTextIndexText(text)) } as typeof insert
    matchRow = db.prepare('SELECT rowid FROM docs WHERE docs MATCH ? AND rowid = ?')
    // background rows so a query has something to scan besides the document under test
    for (const text of ['alpha beta', 'NEAR AND OR NOT', 'café Ärger 東京', 'hello🙂world']) insert.run(text)
  })
  afterAll(() => {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })

  function findsOwnText(text: string, options: MatchQueryOptions): boolean {
    const query = buildMatchQuery(text, options)
    if (query === null) return true
    const { lastInsertRowid } = insert.run(text)
    try {
      return matchRow.get(query, lastInsertRowid) !== undefined
    } finally {
      db.prepare('DELETE FROM docs WHERE rowid = ?').run(lastInsertRowid)
    }
  }

  for (const [label, texts] of TEXTS) {
    it(`never makes MATCH throw: ${label}`, () => {
      fc.assert(
        fc.property(texts, OPTIONS, (text, options) => {
          const query = buildMatchQuery(text, options)
          if (query !== null) db.prepare('SELECT count(*) FROM docs WHERE docs MATCH ?').get(query)
        }),
        { numRuns: 300 },
      )
    })

    it(`finds a document made of the query text, in every mode: ${label}`, () => {
      fc.assert(
        fc.property(texts, OPTIONS, (text, options) => findsOwnText(text, options)),
        { numRuns: 200 },
      )
    })
  }

  it('finds a document containing a query word amid operator noise (or-mode)', () => {
    const word = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).filter((w) => {
      const terms = [...tokenizeForFts(w)]
      return terms.length === 1 && terms[0] === w
    })
    fc.assert(
      fc.property(word, operatorSoup, operatorSoup, operatorSoup, (w, before, after, docNoise) => {
        const { lastInsertRowid } = insert.run(`${docNoise} ${w} ${docNoise}`)
        try {
          const query = buildMatchQuery(`${before} ${w} ${after}`, { maxTerms: 200 })
          expect(query).not.toBeNull()
          expect(matchRow.get(query!, lastInsertRowid)).toBeDefined()
        } finally {
          db.prepare('DELETE FROM docs WHERE rowid = ?').run(lastInsertRowid)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('returns null exactly when the text, as the index holds it, has no FTS5 term', () => {
    fc.assert(
      fc.property(fc.oneof(...TEXTS.map(([, arb]) => arb)), (text) => {
        expect(buildMatchQuery(text) === null).toBe([...tokenizeForFts(fullTextIndexText(text))].length === 0)
      }),
      { numRuns: 500 },
    )
  })

  it('always emits quoted terms joined by the chosen operator', () => {
    const shape = /^"[^"]+"\*?(?: (?:OR|AND) "[^"]+"\*?)*$/u
    fc.assert(
      fc.property(fc.oneof(...TEXTS.map(([, arb]) => arb)), OPTIONS, (text, options) => {
        const query = buildMatchQuery(text, options)
        if (query === null) return
        expect(query).toMatch(shape)
        expect(query.includes(options.mode === 'and' ? ' OR ' : ' AND ')).toBe(false)
        expect(query.split(/ (?:OR|AND) /).length).toBeLessThanOrEqual(options.maxTerms ?? 32)
      }),
      { numRuns: 500 },
    )
  })

  it('finds words from their beginnings with prefixLastTerm, through the porter stemmer', () => {
    const { lastInsertRowid } = insert.run('Deploying the staging environment happily')
    try {
      for (const typed of ['deplo', 'stag', 'environ', 'happ', 'the staging env']) {
        const query = buildMatchQuery(typed, { mode: 'and', prefixLastTerm: true })!
        expect(matchRow.get(query, lastInsertRowid), typed).toBeDefined()
      }
      expect(matchRow.get(buildMatchQuery('stag')!, lastInsertRowid)).toBeUndefined()
    } finally {
      db.prepare('DELETE FROM docs WHERE rowid = ?').run(lastInsertRowid)
    }
  })

  it('handles a 100 KB random string and a 100 KB single word', () => {
    const random = fc.sample(fc.string({ unit: 'binary', minLength: 50_000, maxLength: 50_000 }), {
      numRuns: 1,
      seed: 7,
    })[0]!
    const oneWord = 'ab'.repeat(50_000)
    for (const text of [random, oneWord]) {
      expect(findsOwnText(text, {})).toBe(true)
      expect(findsOwnText(text, { mode: 'and', prefixLastTerm: true })).toBe(true)
    }
  })
})
