/** A ranked item and the session it belongs to. */
export interface SessionItem {
  readonly id: number
  readonly score: number
  readonly sessionId: string | undefined
}

/**
 * Reorders `items` (best first) so a list over the whole conversation covers its sessions: each next item
 * is the one with the best `score × decay^n`, `n` being how many of its session's items are already placed.
 * `decay` 1 keeps the order; lower values spread the list across sessions sooner. Items without a session
 * count as their own.
 */
export function diversifyBySession<T extends SessionItem>(items: readonly T[], decay: number): T[] {
  if (decay >= 1 || items.length < 2) return [...items]
  const queues = new Map<string, T[]>()
  items.forEach((item, index) => {
    const key = item.sessionId ?? `#${index}`
    const queue = queues.get(key)
    if (queue) queue.push(item)
    else queues.set(key, [item])
  })
  const placed = new Map<string, number>()
  const out: T[] = []
  while (out.length < items.length) {
    let bestKey: string | undefined
    let bestScore = Number.NEGATIVE_INFINITY
    for (const [key, queue] of queues) {
      const head = queue[0]
      if (!head) continue
      const score = head.score * decay ** (placed.get(key) ?? 0)
      if (score > bestScore) {
        bestScore = score
        bestKey = key
      }
    }
    if (bestKey === undefined) break
    const item = queues.get(bestKey)?.shift() as T
    placed.set(bestKey, (placed.get(bestKey) ?? 0) + 1)
    out.push(item)
  }
  return out
}
