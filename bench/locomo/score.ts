export const RECALL_KS = [5, 10, 20] as const
export type RecallK = (typeof RECALL_KS)[number]

export interface QuestionScore {
  readonly category: number
  readonly recall: Record<RecallK, number>
  readonly anyHit: Record<RecallK, number>
}

/**
 * Scores one question: `rankedTurns` are the source turns of augment's items in rank order (already
 * expanded and de-duplicated); recall@k is the share of evidence turns among the first k.
 */
export function scoreQuestion(
  category: number,
  evidence: readonly string[],
  rankedTurns: readonly string[],
): QuestionScore {
  const recall = {} as Record<RecallK, number>
  const anyHit = {} as Record<RecallK, number>
  for (const k of RECALL_KS) {
    const top = new Set(rankedTurns.slice(0, k))
    const found = evidence.filter((turn) => top.has(turn)).length
    recall[k] = found / evidence.length
    anyHit[k] = found > 0 ? 1 : 0
  }
  return { category, recall, anyHit }
}

/** Expands ranked items to their source turns, de-duplicating while keeping first-seen order. */
export function rankTurns(
  items: readonly { messageIds: readonly number[] }[],
  turnOf: (messageId: number) => string | undefined,
): string[] {
  const seen = new Set<string>()
  const turns: string[] = []
  for (const item of items) {
    for (const messageId of item.messageIds) {
      const turn = turnOf(messageId)
      if (turn && !seen.has(turn)) {
        seen.add(turn)
        turns.push(turn)
      }
    }
  }
  return turns
}

/** Per category (and "1-4"), per k: `{ "1-4": { "5": r, "10": r, "20": r }, "1": {...} }`. */
export type Table = Record<string, Record<string, number>>

/** Averages per category and for categories 1-4 together: `{ "1-4": { "5": r, ... }, "1": {...}, ... }`. */
export function summarise(scores: readonly QuestionScore[], metric: 'recall' | 'anyHit'): Table {
  const groups = new Map<string, QuestionScore[]>()
  const add = (key: string, score: QuestionScore) => groups.set(key, [...(groups.get(key) ?? []), score])
  for (const score of scores) {
    add(String(score.category), score)
    if (score.category >= 1 && score.category <= 4) add('1-4', score)
  }
  const table: Table = {}
  for (const key of ['1-4', '1', '2', '3', '4', '5']) {
    const group = groups.get(key)
    if (!group) continue
    table[key] = Object.fromEntries(
      RECALL_KS.map((k) => [
        String(k),
        round(group.reduce((sum, s) => sum + s[metric][k], 0) / group.length),
      ]),
    )
  }
  return table
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}
