import type { QueryConfig } from '../config'
import type { KeywordSource, RetrievalReason } from '../reasons'

/**
 * One ranked list from one source; the first item is rank 1. `keyword` lists carry BM25 order only (`source`
 * names the index in the reason); `vector` lists carry cosine similarity per item.
 */
export type RankedList = {
  /**
   * `matched: false` marks an item a keyword list ranks without a keyword match (a turn reached through its
   * context or meaning): it is scored by its rank like the others but gets no `keyword` reason.
   */
  readonly items: readonly {
    readonly key: string
    readonly similarity?: number
    readonly matched?: boolean
  }[]
  /** Multiplies what the list adds to a fused score (RRF term, keyword bonus). @default 1 */
  readonly weight?: number
} & ({ readonly kind: 'keyword'; readonly source: KeywordSource } | { readonly kind: 'vector' })

/** A fused candidate, best first. */
export interface FusedItem {
  readonly key: string
  readonly score: number
  /** Cosine similarity when any vector list (or `knownSimilarity`) had it. */
  readonly similarity: number | null
  readonly reasons: RetrievalReason[]
}

type Tunables = Pick<QueryConfig, 'fusion' | 'rrfK' | 'lexicalBoost' | 'lexicalRankDecayK'>

/**
 * Fuses ranked lists. `rrf`: `Σ 1/(k + rank)` over every list. `lexical-bonus`: cosine similarity (0 when
 * unknown) plus a bounded keyword bonus `boost × K/(K + rank − 1)`, so a keyword match can break ties
 * between meanings but never overrule them. `knownSimilarity` supplies cosines for keyword-only items.
 */
export function fuseLists(
  lists: readonly RankedList[],
  config: Tunables,
  knownSimilarity: ReadonlyMap<string, number> = new Map(),
): FusedItem[] {
  const acc = new Map<
    string,
    { score: number; similarity: number | null; reasons: RetrievalReason[]; first: number }
  >()
  let order = 0
  for (const list of lists) {
    list.items.forEach((item, index) => {
      const rank = index + 1
      let entry = acc.get(item.key)
      if (!entry) {
        entry = { score: 0, similarity: knownSimilarity.get(item.key) ?? null, reasons: [], first: order++ }
        acc.set(item.key, entry)
      }
      if (list.kind === 'vector') {
        const similarity = item.similarity ?? 0
        entry.similarity = Math.max(entry.similarity ?? Number.NEGATIVE_INFINITY, similarity)
        entry.reasons.push({ kind: 'semantic', similarity })
      } else if (item.matched !== false) {
        entry.reasons.push({ kind: 'keyword', source: list.source, rank })
      }
      const weight = list.weight ?? 1
      if (config.fusion === 'rrf') entry.score += weight / (config.rrfK + rank)
      else if (list.kind === 'keyword')
        entry.score +=
          (weight * config.lexicalBoost * config.lexicalRankDecayK) / (config.lexicalRankDecayK + rank - 1)
    })
  }
  const fused = [...acc.entries()].map(([key, entry]) => ({
    key,
    score: config.fusion === 'rrf' ? entry.score : entry.score + Math.max(0, entry.similarity ?? 0),
    similarity: entry.similarity,
    reasons: entry.reasons,
    first: entry.first,
  }))
  fused.sort((a, b) => b.score - a.score || a.first - b.first)
  return fused.map(({ first: _first, ...item }) => item)
}
