import type { FusedItem, RankedList } from './fusion'

/**
 * How much keyword and vector search disagree on their #1, from 0 (same #1, or only one kind of list has
 * results) to 1 (neither #1 appears in the other kind's list): `1 − (1/r_v + 1/r_k) / 2`, where `r_v` is the
 * keyword #1's rank in the vector list and `r_k` the vector #1's best rank in a keyword list (∞ when absent).
 */
export function disagreementOf(lists: readonly RankedList[]): number {
  const keyword = lists.filter((list) => list.kind === 'keyword' && list.items.length > 0)
  const vector = lists.filter((list) => list.kind === 'vector' && list.items.length > 0)
  const keywordHead = keyword[0]?.items[0]?.key
  const vectorHead = vector[0]?.items[0]?.key
  if (keywordHead === undefined || vectorHead === undefined) return 0
  if (keywordHead === vectorHead) return 0
  const rankIn = (items: RankedList['items'], key: string) => {
    const index = items.findIndex((item) => item.key === key)
    return index < 0 ? Number.POSITIVE_INFINITY : index + 1
  }
  const inVector = rankIn(vector[0]!.items, keywordHead)
  const inKeyword = Math.min(...keyword.map((list) => rankIn(list.items, vectorHead)))
  return 1 - (1 / inVector + 1 / inKeyword) / 2
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
        reasons:
          llm === undefined ? item.reasons : [...item.reasons, { kind: 'rerank' as const, score: llm }],
      },
      index,
    }
  })
  combined.sort((a, b) => b.item.score - a.item.score || a.index - b.index)
  return combined.map((entry) => entry.item)
}
