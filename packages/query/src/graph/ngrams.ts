/** Word-ish tokens: letters/digits, keeping inner `. + # _ ' -` so `node.js`, `c++`, `c#` stay whole. */
const WORD = /[\p{L}\p{N}](?:[\p{L}\p{N}.+#_'’-]*[\p{L}\p{N}+#])?/gu

/** The first `maxWords` words of `text` (a long paste is only read as far as needed). */
export function words(text: string, maxWords: number): string[] {
  const out: string[] = []
  WORD.lastIndex = 0
  for (const match of text.matchAll(WORD)) {
    out.push(match[0])
    if (out.length >= maxWords) break
  }
  return out
}

/**
 * Every 1..maxN-word n-gram of `tokens`, longest first per start position, de-duplicated (case-insensitive).
 * Single words listed in `skip` (stop words) are left out; they still take part in longer n-grams.
 */
export function ngrams(tokens: readonly string[], maxN: number, skip: ReadonlySet<string>): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (let start = 0; start < tokens.length; start++) {
    for (let n = Math.min(maxN, tokens.length - start); n >= 1; n--) {
      const gram = tokens.slice(start, start + n).join(' ')
      const key = gram.toLowerCase()
      if (n === 1 && skip.has(key)) continue
      if (seen.has(key)) continue
      seen.add(key)
      out.push(gram)
    }
  }
  return out
}

/** Scripts written without spaces, where a name can start and end inside any run of letters. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}ー]+/gu
/** Longest name looked for inside an unspaced run, and how much of a run is read. */
const MAX_NAME_CHARS = 6
const MAX_RUN_CHARS = 40

/**
 * Every 2..6-character piece of the unspaced runs in `token` (`阿里云上的服务` → `阿里`, `阿里云`, …), so a
 * name written without spaces around it (`阿里云`, `東京`) can be looked up like a word elsewhere.
 */
export function unspacedNames(token: string): string[] {
  const out: string[] = []
  for (const run of token.matchAll(UNSPACED)) {
    const chars = [...run[0]].slice(0, MAX_RUN_CHARS)
    for (let start = 0; start < chars.length; start++)
      for (let end = start + 2; end <= Math.min(chars.length, start + MAX_NAME_CHARS); end++)
        out.push(chars.slice(start, end).join(''))
  }
  return out
}
