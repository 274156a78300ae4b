import { describe, expect, it } from 'vitest'
import { buildMatchQuery, DEFAULT_MAX_TERMS } from './match-query'
import { ENGLISH_STOP_WORDS } from './stop-words'
import { tokenizeForFts } from './tokenize'

describe('tokenizeForFts', () => {
  it('splits on everything that is not a letter or digit, across scripts', () => {
    expect([...tokenizeForFts('Hello, wörld! 東京 café_au-lait x2 ٣٤')]).toEqual([
      'Hello',
      'wörld',
      '東京',
      'café',
      'au',
      'lait',
      'x2',
      '٣٤',
    ])
  })

  it('keeps terms whole where FTS5 does (emoji SQLite does not know are token characters)', () => {
    expect([...tokenizeForFts('hello🙂world hello😀world')]).toEqual(['hello🙂world', 'hello', 'world'])
  })

  it('drops terms made only of diacritics that FTS5 deletes, keeps letters that carry them', () => {
    expect([...tokenizeForFts('\u0301 \u0300\u0301 e\u0301')]).toEqual(['e\u0301'])
  })

  it('treats control characters and lone surrogates as separators', () => {
    expect([...tokenizeForFts('a\u0000b\u0007c\ud800d\udfffe')]).toEqual(['a', 'b', 'c', 'd', 'e'])
  })
})

describe('buildMatchQuery', () => {
  it('quotes each term and joins with OR by default', () => {
    expect(buildMatchQuery('deploy the staging server')).toBe('"deploy" OR "the" OR "staging" OR "server"')
  })

  it('joins with AND in and-mode', () => {
    expect(buildMatchQuery('deploy staging', { mode: 'and' })).toBe('"deploy" AND "staging"')
  })

  it('neutralises FTS5 syntax typed by the user', () => {
    expect(buildMatchQuery('body:"x" OR (NEAR(a b, 2) AND -c^ NOT d*')).toBe(
      '"body" OR "x" OR "OR" OR "NEAR" OR "a" OR "b" OR "2" OR "AND" OR "c" OR "NOT" OR "d"',
    )
  })

  it('returns null when nothing searchable remains', () => {
    for (const text of ['', '   ', '?!()"*:^-', '\u0000\u0001', '😀😀', '\u0301', '\ud800']) {
      expect(buildMatchQuery(text)).toBeNull()
    }
  })

  it('searches the number signs of unspaced scripts that the index holds, though ICU calls them no word', () => {
    expect(buildMatchQuery('៰')).toBe('"៰"')
    expect(buildMatchQuery('ក៰')).toBe('"ក" OR "៰"')
  })

  it('returns null instead of throwing on a non-string from untyped callers', () => {
    expect(buildMatchQuery(undefined as unknown as string)).toBeNull()
    expect(buildMatchQuery(42 as unknown as string)).toBeNull()
  })

  it('de-duplicates terms, ignoring ASCII case', () => {
    expect(buildMatchQuery('Redis redis REDIS cache Redis')).toBe('"Redis" OR "cache"')
  })

  it('keeps Unicode case variants apart, since only FTS5 knows how it folds them', () => {
    expect(buildMatchQuery('Ärger ärger')).toBe('"Ärger" OR "ärger"')
  })

  it(`caps the number of terms at ${DEFAULT_MAX_TERMS} by default, or at maxTerms`, () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`)
    expect(buildMatchQuery(words.join(' '))!.split(' OR ')).toHaveLength(DEFAULT_MAX_TERMS)
    expect(buildMatchQuery(words.join(' '), { maxTerms: 3 })).toBe('"w0" OR "w1" OR "w2"')
    expect(buildMatchQuery(words.join(' '), { maxTerms: 0 })).toBe('"w0"')
    expect(buildMatchQuery(words.join(' '), { maxTerms: Number.NaN })!.split(' OR ')).toHaveLength(
      DEFAULT_MAX_TERMS,
    )
  })

  it('leaves stop words out only when asked', () => {
    const text = 'What is the plan for the database migration?'
    expect(buildMatchQuery(text, { stopWords: ENGLISH_STOP_WORDS })).toBe(
      '"plan" OR "database" OR "migration"',
    )
    expect(buildMatchQuery(text)).toContain('"the"')
  })

  it('matches stop words case-insensitively', () => {
    expect(buildMatchQuery('THE Plan', { stopWords: ENGLISH_STOP_WORDS })).toBe('"Plan"')
  })

  it('still searches a query made only of stop words', () => {
    expect(buildMatchQuery('to be or not to be', { stopWords: ENGLISH_STOP_WORDS })).toBe(
      '"to" OR "be" OR "or" OR "not"',
    )
  })

  it('turns the last term into a prefix query when asked', () => {
    expect(buildMatchQuery('deploy stag', { prefixLastTerm: true })).toBe('"deploy" OR "stag"*')
    expect(buildMatchQuery('stag', { prefixLastTerm: true, mode: 'and' })).toBe('"stag"*')
  })

  it('handles 100 KB of input by reading only as far as it needs', () => {
    const long = 'lorem ipsum dolor '.repeat(6000)
    expect(buildMatchQuery(long)).toBe('"lorem" OR "ipsum" OR "dolor"')
    const oneWord = 'x'.repeat(100_000)
    expect(buildMatchQuery(oneWord)).toBe(`"${oneWord}"`)
  })
})
