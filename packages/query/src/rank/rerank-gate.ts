import type { FusedItem, RankedList } from './fusion'

/**
 * How ambiguous the fused head is: the runner-up's score as a fraction of the leader's (1 = a tie, 0 = a
 * clear winner). Returns 0 when fewer than two candidates exist or when every non-empty source list agrees
 * on its #1 (nothing to arbitrate).
 */
export function ambiguityOf(fused: readonly FusedItem[], lists: readonly RankedList[]): number {
  const [first, second] = fused
  if (!first || !second || first.score <= 0) return 0
  const heads = new Set(lists.flatMap((list) => (list.items[0] ? [list.items[0].key] : [])))
  if (heads.size < 2) return 0
  return second.score / first.score
}

/**
 * Combines reranker scores (1–5) with fused scores: `(1 − w) × fused/maxFused + w × (llm − 1)/4`. A candidate
 * the reranker skipped keeps its normalised fused score in both terms.
 */
export function combineRerank(
  fused: readonly FusedItem[],
  scores: ReadonlyMap<string, number>,
  weight: number,
): FusedItem[] {
  const max = fused[0]?.score ?? 0
  const combined = fused.map((item, index) => {
    const base = max > 0 ? item.score / max : 0
    const llm = scores.get(item.key)
    const judged = llm === undefined ? base : (Math.min(5, Math.max(1, llm)) - 1) / 4
    return {
      item: {
        ...item,
        score: (1 - weight) * base + weight * judged,
        whyRetrieved: llm === undefined ? item.whyRetrieved : [...item.whyRetrieved, `rerank_${llm}`],
      },
      index,
    }
  })
  combined.sort((a, b) => b.item.score - a.item.score || a.index - b.index)
  return combined.map((entry) => entry.item)
}
