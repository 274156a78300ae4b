const WORD = /[\p{L}\p{N}]+/gu

function fnv1a(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

function addFeature(vec: Float32Array, feature: string, weight: number): void {
  const h = fnv1a(feature, 0)
  const index = h % vec.length
  const sign = fnv1a(feature, 0x9e3779b9) & 1 ? 1 : -1
  vec[index] = (vec[index] ?? 0) + sign * weight
}

/**
 * Deterministic "bag of features" embedding: lower-cased words (weight 1) and their character trigrams
 * (weight 0.35) hashed into `dimensions` buckets with a hashed sign, then L2-normalised. Texts sharing words
 * get a higher cosine than unrelated texts. Shared by the fake client and the fake server.
 */
export function _hashEmbedding(text: string, dimensions: number): Float32Array {
  const vec = new Float32Array(dimensions)
  const words = text.toLowerCase().match(WORD) ?? []
  for (const word of words) {
    addFeature(vec, `w:${word}`, 1)
    const padded = `#${word}#`
    for (let i = 0; i + 3 <= padded.length; i++) addFeature(vec, `t:${padded.slice(i, i + 3)}`, 0.35)
  }
  let norm = 0
  for (const x of vec) norm += x * x
  if (norm === 0) {
    vec[0] = 1
    return vec
  }
  const inv = 1 / Math.sqrt(norm)
  for (let i = 0; i < vec.length; i++) vec[i] = (vec[i] ?? 0) * inv
  return vec
}
