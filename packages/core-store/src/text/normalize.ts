/** The one separator between the words of a canonical name. */
export const CANONICAL_SEPARATOR = '_'

/** Leading articles dropped from names (English and Dutch), as long as a word remains after them. */
export const LEADING_ARTICLES: ReadonlySet<string> = new Set(['the', 'a', 'an', 'de', 'het', 'een'])

// Letters that carry no combining mark after NFKD but are still "accented" to an English reader.
const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
}
const LETTER_FOLD_PATTERN = new RegExp(`[${Object.keys(LETTER_FOLDS).join('')}]`, 'gu')

const OPENERS: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' }

// Accents are dropped from Latin and Greek only: in other scripts combining marks are part of the letter
// (Devanagari vowel signs, Cyrillic й) and removing them would merge different words.
const LATIN_GREEK_ACCENT = /([\p{Script=Latin}\p{Script=Greek}])\p{M}+/gu
const ALPHANUMERIC = /[\p{L}\p{N}]/u
const NON_WORD = /[^\p{L}\p{N}\p{M}]+/u

/**
 * Removes bracketed asides, `Redis (cache)` → `Redis `, nesting included. An opening bracket that is never
 * closed is treated as punctuation so that no text is lost, and so is a name that is all aside (`(cache)`).
 */
function stripBrackets(text: string): string {
  let out = ''
  const stack: string[] = []
  let asideStart = 0
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    const closer = OPENERS[ch]
    if (closer !== undefined) {
      if (stack.length === 0) asideStart = i
      stack.push(closer)
    } else if (stack.length > 0 && ch === stack[stack.length - 1]) {
      stack.pop()
    } else if (stack.length === 0) {
      out += ch
    }
  }
  if (stack.length > 0) out += ` ${text.slice(asideStart)}`
  return ALPHANUMERIC.test(out) ? out : text
}

// ASCII fast paths: normalize also folds whole chunk texts, so per-character regexes add up.
function isAlnum(ch: string | undefined): boolean {
  if (ch === undefined) return false
  const c = ch.charCodeAt(0)
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
  return ALPHANUMERIC.test(ch)
}
function isLetter(ch: string | undefined): boolean {
  if (ch === undefined) return false
  const c = ch.charCodeAt(0)
  if (c < 128) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
  return /\p{L}/u.test(ch)
}

/**
 * Symbols that make a name: `C++` → `Cpp`, `C#`/`F#` → `Csharp`/`Fsharp`, `.NET` → `dotNET`. Dots and
 * apostrophes between two letters join them (`Node.js` → `Nodejs`, `O'Reilly` → `OReilly`, `U.S.A.` →
 * `USA`); every other symbol is left for the separator step.
 */
function encodeSymbols(text: string): string {
  const chars = [...text]
  let out = ''
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!
    const prev = chars[i - 1]
    const next = chars[i + 1]
    if (ch === '+' && isLetter(prev)) {
      let run = 0
      while (chars[i + run] === '+') run++
      if (!isLetter(chars[i + run])) {
        out += 'p'.repeat(run)
        i += run - 1
        continue
      }
    } else if (ch === '#' && isLetter(prev) && !isAlnum(next)) {
      out += 'sharp'
      continue
    } else if (ch === '.' && !isAlnum(prev) && prev !== '#' && prev !== '+' && isLetter(next)) {
      out += 'dot'
      continue
    } else if ((ch === '.' || ch === "'" || ch === '’') && isLetter(prev)) {
      if (isLetter(next) || (ch === '.' && /^\p{Lu}$/u.test(prev!) && !isAlnum(next))) continue
    }
    out += ch
  }
  return out
}

/**
 * Splits CamelCase and PascalCase into words: `UserService` → `User Service`, `HTTPServer` →
 * `HTTP Server`, `getUserById` → `get User By Id`. A trailing acronym stays with the word before it so that
 * product names keep one form whatever their casing (`PostgreSQL` and `postgresql` both give `postgresql`,
 * `FastAPI` gives `fastapi`, `macOS` gives `macos`), as does a one-letter lower-case prefix (`iPhone`,
 * `eBay`) and a plural acronym (`APIs`).
 */
function splitCamelCase(text: string): string {
  const chars = [...text]
  const kinds = chars.map(kindOf)
  let out = ''
  for (let i = 0; i < chars.length; i++) {
    if (i > 0 && kinds[i] === 'U' && splitsBefore(chars, kinds, i)) out += ' '
    out += chars[i]
  }
  return out
}

type CharKind = 'U' | 'L' | 'A' | '-'
function kindOf(ch: string): CharKind {
  const c = ch.charCodeAt(0)
  if (c < 128) return c >= 65 && c <= 90 ? 'U' : c >= 97 && c <= 122 ? 'L' : c >= 48 && c <= 57 ? 'A' : '-'
  if (/\p{Lu}/u.test(ch)) return 'U'
  if (/\p{Ll}/u.test(ch)) return 'L'
  return ALPHANUMERIC.test(ch) ? 'A' : '-'
}

// Whether a word starts at the capital chars[i]. Linear overall: each capital run is scanned once.
function splitsBefore(chars: readonly string[], kinds: readonly CharKind[], i: number): boolean {
  if (kinds[i - 1] === 'U') {
    // "HTTPServer": the last capital of a run starts a capitalised word (not the "s" of "APIs")
    return kinds[i + 1] === 'L' && !(chars[i + 1] === 's' && kinds[i + 2] !== 'L')
  }
  if (kinds[i - 1] !== 'L') return false
  // "iPhone", "eBay": a one-letter lower-case prefix stays
  if (i < 2 || kinds[i - 2] === '-') return false
  let capsEnd = i
  while (kinds[capsEnd] === 'U') capsEnd++
  let tailEnd = capsEnd
  while (kinds[tailEnd] === 'L') tailEnd++
  const tail = tailEnd - capsEnd
  // "PostgreSQL", "FastAPI", "macOS", "getAPIs": an acronym ending the word stays with it
  const acronymSuffix =
    capsEnd - i >= 2 &&
    (tail === 0 || (tail === 1 && chars[capsEnd] === 's')) &&
    (kinds[tailEnd] === undefined || kinds[tailEnd] === '-')
  return !acronymSuffix
}

const ASCII_ONLY = /^\p{ASCII}*$/u

function foldWord(word: string): string {
  if (ASCII_ONLY.test(word)) return word.toLowerCase()
  return word
    .normalize('NFKD')
    .toLowerCase()
    .replace(LATIN_GREEK_ACCENT, '$1')
    .replace(LETTER_FOLD_PATTERN, (ch) => LETTER_FOLDS[ch] ?? ch)
    .normalize('NFC')
}

/**
 * Turns an entity's surface form into its canonical name: Unicode compatibility folding, Latin and Greek
 * accents removed, lower case, CamelCase split into words, bracketed asides and leading articles
 * (the/a/an, de/het/een) dropped, and every run of other characters replaced by one `_`.
 * `C++`, `C#` and `.NET` keep their meaning as `cpp`, `csharp` and `dotnet`. Idempotent; returns `''` when
 * nothing usable is left (callers drop such names).
 *
 * @example
 * ```ts
 * normalize('The PostgreSQL (database)') // 'postgresql'
 * normalize('UserService')               // 'user_service'
 * normalize('Café-Society')              // 'cafe_society'
 * normalize('C#')                        // 'csharp'
 * ```
 */
export function normalize(surface: string): string {
  if (typeof surface !== 'string') return ''
  const text = encodeSymbols(splitCamelCase(stripBrackets(surface.normalize('NFKC'))))
  const words: string[] = []
  for (const chunk of text.split(NON_WORD)) {
    for (const folded of foldWord(chunk).split(NON_WORD)) {
      if (ALPHANUMERIC.test(folded)) words.push(folded)
    }
  }
  while (words.length > 1 && LEADING_ARTICLES.has(words[0]!)) words.shift()
  return words.join(CANONICAL_SEPARATOR)
}

/** True when `value` is a non-empty canonical name, i.e. `normalize(value) === value`. */
export function isCanonical(value: string): boolean {
  return typeof value === 'string' && value !== '' && normalize(value) === value
}
