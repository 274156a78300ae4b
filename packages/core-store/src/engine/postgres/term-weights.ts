/** A query term's lexemes (after the text search configuration) and its document frequency. */
export interface TermFrequency {
  readonly lexemes: readonly string[]
  readonly documents: number
}

/** The `ts_rank` weights `{D, C, B, A}` and the lexemes to label A, B and C (the rest rank as D). */
export interface TermWeights {
  readonly weights: readonly [number, number, number, number]
  readonly labelled: { readonly A: string[]; readonly B: string[]; readonly C: string[] }
}

const LABELS = ['A', 'B', 'C', 'D'] as const

/**
 * BM25's inverse document frequency, `ln((N − n + 0.5) / (n + 0.5))` floored at 1e-6 as FTS5 does, of each
 * term, folded into `ts_rank`'s four label weights: with up to four distinct terms each gets its own label and
 * its own IDF; with more, the terms sorted by IDF fall into four groups weighted by their mean. Weights are
 * divided by the largest, as `ts_rank` takes them in [0, 1] (scores are relative to the best hit anyway).
 *
 * @example
 * termWeights([{ lexemes: ['rare'], documents: 1 }, { lexemes: ['common'], documents: 500 }], 1000)
 * // { weights: [1.5e-7, 0, 0, 1], labelled: { A: ['rare'], B: [], C: [] } }: 'common' stays D
 */
export function termWeights(terms: readonly TermFrequency[], total: number): TermWeights {
  const byLexemes = new Map<string, { lexemes: readonly string[]; idf: number }>()
  for (const term of terms) {
    if (term.lexemes.length === 0) continue
    const idf = Math.max(Math.log((total - term.documents + 0.5) / (term.documents + 0.5)), 1e-6)
    byLexemes.set(term.lexemes.join(' '), { lexemes: term.lexemes, idf })
  }
  const sorted = [...byLexemes.values()].sort((a, b) => b.idf - a.idf)
  const groups: (typeof sorted)[] = [[], [], [], []]
  sorted.forEach((term, at) => {
    groups[Math.min(3, Math.floor((at * 4) / Math.max(sorted.length, 4)))]!.push(term)
  })
  const used = groups.filter((group) => group.length > 0)
  // The least informative group ranks as D, the label of every lexeme left unlabelled.
  const labelled = { A: [] as string[], B: [] as string[], C: [] as string[] }
  const weight = { A: 0, B: 0, C: 0, D: 0 }
  const top = sorted[0]?.idf ?? 1
  used.forEach((group, at) => {
    const label = at === used.length - 1 ? 'D' : LABELS[at]!
    weight[label] = group.reduce((sum, term) => sum + term.idf, 0) / group.length / top
    if (label !== 'D') labelled[label].push(...group.flatMap((term) => term.lexemes))
  })
  return { weights: [weight.D, weight.C, weight.B, weight.A], labelled }
}
