import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { _FTS_TOKEN_CHAR_RANGES, _FTS_VANISHING_CHARS, _isFtsTokenChar } from './token-chars'

const MAX_CODE_POINT = 0x10ffff
const isSurrogate = (cp: number) => cp >= 0xd800 && cp <= 0xdfff

interface Classification {
  tokenChar: Uint8Array
  vanishing: number[]
}

// Asks a real FTS5 table how it tokenizes "q<c>z" for every code point c: one term means c is a token
// character (the term is "qz" when remove_diacritics deletes c), the terms "q" and "z" mean a separator.
function classifyWithFts5(db: Database.Database): Classification {
  db.exec(`CREATE VIRTUAL TABLE probe USING fts5(body, tokenize = 'unicode61 remove_diacritics 2');
    CREATE VIRTUAL TABLE probe_terms USING fts5vocab(probe, 'instance');`)
  const batches: number[][] = []
  let batch: number[] = []
  for (let cp = 0; cp <= MAX_CODE_POINT; cp++) {
    if (isSurrogate(cp)) continue
    batch.push(cp)
    if (batch.length === 8192) {
      batches.push(batch)
      batch = []
    }
  }
  batches.push(batch)
  const insert = db.prepare('INSERT INTO probe(rowid, body) VALUES (?, ?)')
  db.transaction(() => {
    batches.forEach((cps, i) => {
      insert.run(i + 1, cps.map((cp) => `q${String.fromCodePoint(cp)}z`).join(' '))
    })
  })()
  const termsByDoc = batches.map((): string[] => [])
  const rows = db.prepare('SELECT doc, offset, term FROM probe_terms').raw().iterate()
  for (const [doc, offset, term] of rows as IterableIterator<[number, number, string]>) {
    termsByDoc[doc - 1]![offset] = term
  }
  const tokenChar = new Uint8Array(MAX_CODE_POINT + 1)
  const vanishing: number[] = []
  batches.forEach((cps, i) => {
    const seen = termsByDoc[i]!
    let at = 0
    for (const cp of cps) {
      const term = seen[at++]
      if (term === 'q') {
        if (seen[at++] !== 'z') throw new Error(`unexpected FTS5 terms around U+${cp.toString(16)}`)
      } else {
        tokenChar[cp] = 1
        if (term === 'qz') vanishing.push(cp)
      }
    }
    if (at !== seen.length) throw new Error(`FTS5 produced ${seen.length} terms for batch ${i}, read ${at}`)
  })
  return { tokenChar, vanishing }
}

function encodeRanges(tokenChar: Uint8Array): string {
  const pairs: string[] = []
  let next = 0
  let start = -1
  for (let cp = 0; cp <= tokenChar.length; cp++) {
    const inside = cp < tokenChar.length && tokenChar[cp] === 1
    if (inside && start < 0) start = cp
    if (!inside && start >= 0) {
      pairs.push(`${(start - next).toString(36)}.${(cp - 1 - start).toString(36)}`)
      next = cp
      start = -1
    }
  }
  return pairs.join(' ')
}

describe('FTS5 token character table', () => {
  let dir: string
  let db: Database.Database
  let fts5: Classification

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hymem-'))
    db = new Database(join(dir, 'probe.sqlite'))
    fts5 = classifyWithFts5(db)
  })
  afterAll(() => {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('matches the ranges of the bundled SQLite (update the constant from this diff if it fails)', () => {
    expect(encodeRanges(fts5.tokenChar)).toBe(_FTS_TOKEN_CHAR_RANGES)
  })

  it('lists exactly the combining marks that remove_diacritics deletes', () => {
    expect(fts5.vanishing).toEqual([..._FTS_VANISHING_CHARS])
  })

  it('classifies every code point like FTS5 does', () => {
    const wrong: string[] = []
    for (let cp = 0; cp <= MAX_CODE_POINT; cp++) {
      if (isSurrogate(cp)) continue
      if (_isFtsTokenChar(cp) !== (fts5.tokenChar[cp] === 1)) wrong.push(cp.toString(16))
    }
    expect(wrong).toEqual([])
  })

  it('treats lone surrogates as separators, as FTS5 sees them after UTF-8 conversion', () => {
    expect(_isFtsTokenChar(0xd800)).toBe(false)
    expect(_isFtsTokenChar(0xdfff)).toBe(false)
  })

  it('knows a few landmarks', () => {
    const cp = (s: string) => s.codePointAt(0)!
    expect(['a', 'Z', '7', 'é', '中', 'ß', 'ا', '٣'].map((s) => _isFtsTokenChar(cp(s)))).toEqual(
      Array(8).fill(true),
    )
    expect(['_', '-', '"', '*', ' ', '\u0000', '€', '😀'].map((s) => _isFtsTokenChar(cp(s)))).toEqual(
      Array(8).fill(false),
    )
  })
})
