import type { RankWeights } from '../config'
import type { RankedRef } from '../types'

type Kind = RankedRef['kind']
interface Scored {
  readonly id: number | string
  readonly score: number
  readonly messageIds: number[]
}

const KIND_ORDER: readonly Kind[] = ['hit', 'graph', 'note', 'episode', 'procedure']

/**
 * One reading order over every kind. Scores of different kinds are not comparable, so each item's score is
 * taken relative to the best of its kind and multiplied by that kind's weight; ties keep kind order, then
 * the order within the kind.
 */
export function rankAll(lists: Record<Kind, readonly Scored[]>, weights: RankWeights): RankedRef[] {
  const refs: { ref: RankedRef; kindIndex: number; index: number }[] = []
  KIND_ORDER.forEach((kind, kindIndex) => {
    const items = lists[kind]
    const best = Math.max(0, ...items.map((item) => item.score))
    items.forEach((item, index) => {
      const relative = best > 0 ? Math.max(0, item.score) / best : 0
      refs.push({
        ref: { kind, id: item.id, score: weights[kind] * relative, messageIds: item.messageIds },
        kindIndex,
        index,
      })
    })
  })
  refs.sort((a, b) => b.ref.score - a.ref.score || a.kindIndex - b.kindIndex || a.index - b.index)
  return refs.map((entry) => entry.ref)
}
