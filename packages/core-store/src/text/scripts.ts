/**
 * The character classes behind full-text search in every script, as inclusive code point ranges. Both engines
 * build their index text from these (the JavaScript `fullTextIndexText` on SQLite, the SQL `hymem_fts_text`
 * of migration 8 on PostgreSQL), so both index the same tokens.
 */
export type CodePointRange = readonly [first: number, last: number]

/** Han ideographs (with 々 〆 〇 and the radicals), Hiragana and Katakana: read in character bigrams. */
export const HAN_KANA: readonly CodePointRange[] = [
  [0x2e80, 0x2fdf],
  [0x3005, 0x3007],
  [0x3021, 0x3029],
  [0x3038, 0x303b],
  [0x3041, 0x309f],
  [0x30a0, 0x30fa],
  [0x30fc, 0x30ff],
  [0x31f0, 0x31ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xf900, 0xfaff],
  [0xff66, 0xff9f],
  [0x20000, 0x323af],
]

/** Thai, Lao, Myanmar and Khmer: written without spaces, read in dictionary words (`Intl.Segmenter`). */
export const SOUTHEAST_ASIAN: readonly CodePointRange[] = [
  [0x0e00, 0x0e7f],
  [0x0e80, 0x0eff],
  [0x1000, 0x109f],
  [0x1780, 0x17ff],
]

/**
 * Punctuation outside ASCII (CJK, full-width, general, Arabic, Devanagari, Greek), indexed as spaces: FTS5
 * already splits words there, PostgreSQL's parser (in the C locale every non-ASCII character is a letter)
 * would not, so `PostgreSQL，Redis` stays two words on both engines.
 */
export const WIDE_PUNCTUATION: readonly CodePointRange[] = [
  [0x037e, 0x037e],
  [0x0387, 0x0387],
  [0x055a, 0x055f],
  [0x060c, 0x060c],
  [0x061b, 0x061b],
  [0x061f, 0x061f],
  [0x066a, 0x066d],
  [0x06d4, 0x06d4],
  [0x0964, 0x0965],
  [0x2000, 0x206f],
  [0x3000, 0x3004],
  [0x3008, 0x3020],
  [0x3030, 0x3030],
  [0x30fb, 0x30fb],
  [0xff01, 0xff0f],
  [0xff1a, 0xff20],
  [0xff3b, 0xff40],
  [0xff5b, 0xff65],
]

/**
 * Marks left out of the index: Arabic vowel signs and tatweel (optional in writing, so `كِتاب` is `كتاب`) and
 * the combining marks of the Southeast Asian scripts (FTS5's `unicode61` splits words at them).
 */
export const DROPPED_MARKS: readonly CodePointRange[] = [
  [0x0610, 0x061a],
  [0x0640, 0x0640],
  [0x064b, 0x065f],
  [0x0670, 0x0670],
  [0x06d6, 0x06ed],
  ...marksIn(SOUTHEAST_ASIAN),
]

/**
 * Combining marks of the Indic scripts (Devanagari to Sinhala), kept inside words: FTS5's `unicode61` would
 * split `किताब` at its vowel sign, so the FTS5 tables declare them `tokenchars`.
 */
export const INDIC_MARKS: readonly CodePointRange[] = marksIn([[0x0900, 0x0dff]])

function marksIn(blocks: readonly CodePointRange[]): CodePointRange[] {
  const ranges: [number, number][] = []
  const mark = /^\p{M}$/u
  for (const [first, last] of blocks) {
    for (let cp = first; cp <= last; cp++) {
      if (!mark.test(String.fromCodePoint(cp))) continue
      const open = ranges[ranges.length - 1]
      if (open && open[1] === cp - 1) open[1] = cp
      else ranges.push([cp, cp])
    }
  }
  return ranges
}

/** A JavaScript character class (for a `u` regular expression) of the ranges. */
export function _jsCharClass(ranges: readonly CodePointRange[]): string {
  const hex = (cp: number) => `\\u{${cp.toString(16)}}`
  return `[${ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('')}]`
}

/** A PostgreSQL regular-expression character class of the ranges (`\uXXXX` / `\UXXXXXXXX` escapes). */
export function _postgresCharClass(ranges: readonly CodePointRange[]): string {
  const hex = (cp: number) =>
    cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`
  return `[${ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('')}]`
}

/** The characters of the ranges, as one string (for FTS5's `tokenchars`). */
export function _charsOf(ranges: readonly CodePointRange[]): string {
  let chars = ''
  for (const [a, b] of ranges) for (let cp = a; cp <= b; cp++) chars += String.fromCodePoint(cp)
  return chars
}

/** True when `codePoint` lies in one of the (sorted) ranges. */
export function _inRanges(ranges: readonly CodePointRange[], codePoint: number): boolean {
  for (const [a, b] of ranges) {
    if (codePoint < a) return false
    if (codePoint <= b) return true
  }
  return false
}

const ASCII_ONLY = /^\p{ASCII}*$/u

/** True when `text` is ASCII only (indexed and searched as before migration 8). */
export function _isAscii(text: string): boolean {
  return ASCII_ONLY.test(text)
}
