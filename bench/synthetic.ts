/** Deterministic synthetic text for the benchmarks: same seed, same data, so runs compare. */

/** A seeded PRNG (mulberry32) returning floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'de', 'pa', 'gri', 'tor', 'shen', 'bal']

/** `count` distinct pseudo-words built from syllables (the same list for every caller). */
export function pseudoWords(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    let word = ''
    let n = i + 7
    do {
      word += SYLLABLES[n % SYLLABLES.length]
      n = Math.floor(n / SYLLABLES.length)
    } while (n > 0)
    return word
  })
}

/** Picks words with a Zipf-like skew, so a few are very common, as in real text. */
export function zipfPicker(words: readonly string[], rand: () => number): () => string {
  return () => words[Math.floor(words.length * rand() ** 3)]!
}

/** A sentence of 8–27 skewed words. */
export function sentenceMaker(zipfWord: () => string, rand: () => number): () => string {
  return () => Array.from({ length: 8 + Math.floor(rand() * 20) }, zipfWord).join(' ')
}
