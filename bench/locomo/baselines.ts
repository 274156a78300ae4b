/**
 * The two retrieval baselines the evaluations print beside HyMem, over the same turns: plain single-turn
 * BM25 and plain dense retrieval (cosine to the question over every turn).
 */

import { cosineSimilarity } from '@hymem/core-store'
import type { EmbeddingClient } from '@hymem/extraction'

/**
 * A dense index over whole turns: every turn embedded once by `client`; `rank(question)` embeds the question
 * and lists every turn id by cosine, best first.
 */
export async function createDenseIndex(
  client: EmbeddingClient,
  turns: readonly { readonly id: string; readonly text: string }[],
): Promise<{ rank(question: string): Promise<string[]> }> {
  const vectors = await client.embed(turns.map((turn) => turn.text))
  const indexed = turns.map((turn, i) => ({ id: turn.id, vector: vectors[i] as Float32Array }))
  return {
    async rank(question) {
      const [vector] = await client.embed([question])
      return rankByCosine(vector as Float32Array, indexed)
    },
  }
}

/** Turn ids ranked by cosine to the question, best first. */
function rankByCosine(
  question: Float32Array,
  turns: readonly { readonly id: string; readonly vector: Float32Array }[],
): string[] {
  return turns
    .map((turn) => ({ id: turn.id, score: cosineSimilarity(question, turn.vector) }))
    .sort((a, b) => b.score - a.score)
    .map((turn) => turn.id)
}

/** Okapi BM25's usual constants. */
const K1 = 1.2
const B = 0.75

/** Lower-cased letter/digit runs of any script. */
export function bm25Terms(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

/** A BM25 index over whole turns: `rank(question)` lists every matching turn id, best first. */
export function createBm25Index(turns: readonly { readonly id: string; readonly text: string }[]): {
  rank(question: string): string[]
} {
  const frequencies = turns.map((turn) => {
    const counts = new Map<string, number>()
    for (const term of bm25Terms(turn.text)) counts.set(term, (counts.get(term) ?? 0) + 1)
    return counts
  })
  const lengths = turns.map((turn) => bm25Terms(turn.text).length)
  const averageLength = lengths.reduce((sum, n) => sum + n, 0) / Math.max(1, turns.length)
  const documentFrequency = new Map<string, number>()
  for (const counts of frequencies)
    for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1)
  const idf = (term: string) => {
    const n = documentFrequency.get(term) ?? 0
    return Math.log(1 + (turns.length - n + 0.5) / (n + 0.5))
  }
  return {
    rank(question) {
      const terms = [...new Set(bm25Terms(question))]
      const scored: { id: string; score: number; position: number }[] = []
      turns.forEach((turn, position) => {
        const counts = frequencies[position] as Map<string, number>
        const norm = K1 * (1 - B + (B * (lengths[position] ?? 0)) / (averageLength || 1))
        let score = 0
        for (const term of terms) {
          const tf = counts.get(term) ?? 0
          if (tf > 0) score += (idf(term) * tf * (K1 + 1)) / (tf + norm)
        }
        if (score > 0) scored.push({ id: turn.id, score, position })
      })
      return scored.sort((a, b) => b.score - a.score || a.position - b.position).map((turn) => turn.id)
    },
  }
}
