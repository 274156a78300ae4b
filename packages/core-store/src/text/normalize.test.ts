import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isCanonical, normalize } from './normalize'

describe('normalize', () => {
  it.each([
    // case, separators, trimming
    ['Redis', 'redis'],
    ['  user   service  ', 'user_service'],
    ['sqlite-vec', 'sqlite_vec'],
    ['user_service', 'user_service'],
    ['--redis__cache--', 'redis_cache'],
    ['python 3.11', 'python_3_11'],
    // Unicode folding and accents
    ['Café-Society', 'cafe_society'],
    ['Ñandú', 'nandu'],
    ['Straße', 'strasse'],
    ['Østergaard', 'ostergaard'],
    ['İstanbul', 'istanbul'],
    ['ＦＵＬＬ width', 'full_width'],
    ['ﬁle²', 'file2'],
    ['Ἀθῆναι', 'αθηναι'],
    ['東京タワー', '東京タワー'],
    ['Москва', 'москва'],
    ['й', 'й'],
    ['हिन्दी', 'हिन्दी'],
    // CamelCase and PascalCase
    ['UserService', 'user_service'],
    ['getUserById', 'get_user_by_id'],
    ['HTTPServer', 'http_server'],
    ['getHTTPResponse', 'get_http_response'],
    ['parseJSONData', 'parse_json_data'],
    ['VSCode', 'vs_code'],
    ['JavaScript', 'java_script'],
    // acronym endings, one-letter prefixes and plural acronyms stay whole
    ['PostgreSQL', 'postgresql'],
    ['postgresql', 'postgresql'],
    ['POSTGRESQL', 'postgresql'],
    ['FastAPI', 'fastapi'],
    ['MongoDB', 'mongodb'],
    ['macOS', 'macos'],
    ['iPhone', 'iphone'],
    ['eBay', 'ebay'],
    ['APIs', 'apis'],
    // articles
    ['The Beatles', 'beatles'],
    ['a team', 'team'],
    ['An Apple', 'apple'],
    ['the a team', 'team'],
    ['De Morgan', 'morgan'],
    ['het huis', 'huis'],
    ['een boek', 'boek'],
    ['the', 'the'],
    ['theory', 'theory'],
    // brackets
    ['Redis (cache)', 'redis'],
    ['The PostgreSQL (database) [v16]', 'postgresql'],
    ['x (outer (inner) still outer) y', 'x_y'],
    ['(cache)', 'cache'],
    ['unclosed (paren', 'unclosed_paren'],
    ['closed) extra', 'closed_extra'],
    // symbols that carry meaning
    ['C++', 'cpp'],
    ['c++17', 'cpp17'],
    ['g++', 'gpp'],
    ['C#', 'csharp'],
    ['F#', 'fsharp'],
    ['.NET', 'dotnet'],
    ['ASP.NET', 'aspnet'],
    ['C#.NET', 'csharp_net'],
    ['Node.js', 'nodejs'],
    ['NodeJS', 'nodejs'],
    ["O'Reilly", 'oreilly'],
    ['McDonald’s', 'mc_donalds'],
    ['U.S.A.', 'usa'],
    ['1+1', '1_1'],
    ['#hashtag', 'hashtag'],
    // nothing usable
    ['', ''],
    ['   ', ''],
    ['?!--()', ''],
    ['😀🎉', ''],
    ['\u0000\u0007', ''],
  ])('%j → %j', (surface, canonical) => {
    expect(normalize(surface)).toBe(canonical)
  })

  it('gives Postgres, PostgreSQL and postgresql forms the alias table can join', () => {
    expect(
      new Set(['PostgreSQL', 'postgresql', 'Postgresql', 'postgreSQL', 'the PostgreSQL'].map(normalize)),
    ).toEqual(new Set(['postgresql']))
    expect(normalize('Postgres')).toBe('postgres')
  })

  it('copes with long inputs (whole chunk texts) without super-linear blow-ups', () => {
    expect(normalize('A'.repeat(100_000))).toBe('a'.repeat(100_000))
    expect(normalize('aB'.repeat(50_000))).toBe(`ab${'a_b'.repeat(49_999)}`)
    expect(normalize(`${'('.repeat(100_000)}x`)).toBe('x')
  })

  it('returns an empty string for non-strings from untyped callers', () => {
    expect(normalize(undefined as unknown as string)).toBe('')
    expect(normalize(42 as unknown as string)).toBe('')
  })

  const anyText = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
    fc
      .array(
        fc.constantFrom(
          'The ',
          'a ',
          'de ',
          'Post',
          'gre',
          'SQL',
          'API',
          's',
          'Fast',
          'i',
          'Phone',
          '(',
          ')',
          '[',
          ']',
          '{',
          '}',
          '+',
          '#',
          '.',
          "'",
          '’',
          '-',
          '_',
          ' ',
          'é',
          'e\u0301',
          'ß',
          'Æ',
          'İ',
          'ı',
          '東京',
          'й',
          'ि',
          '2',
          '²',
          'ＡＢ',
          '😀',
          '\u0000',
          'NET',
          'js',
          'C',
          'x',
        ),
        { maxLength: 20 },
      )
      .map((parts) => parts.join('')),
  )

  it('is idempotent', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const once = normalize(text)
        expect(normalize(once)).toBe(once)
      }),
      { numRuns: 3000 },
    )
  })

  it('only ever returns words joined by single underscores', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const canonical = normalize(text)
        if (canonical === '') return
        expect(canonical).toMatch(/^[\p{L}\p{N}\p{M}]+(?:_[\p{L}\p{N}\p{M}]+)*$/u)
        expect(canonical).toBe(canonical.normalize('NFC'))
        expect(isCanonical(canonical)).toBe(true)
      }),
      { numRuns: 3000 },
    )
  })
})

describe('isCanonical', () => {
  it('accepts normalized names and rejects anything normalize would change', () => {
    expect(isCanonical('postgresql')).toBe(true)
    expect(isCanonical('user_service')).toBe(true)
    expect(isCanonical('PostgreSQL')).toBe(false)
    expect(isCanonical('user service')).toBe(false)
    expect(isCanonical('_redis')).toBe(false)
    expect(isCanonical('')).toBe(false)
  })
})
