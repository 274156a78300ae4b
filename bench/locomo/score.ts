export const RECALL_KS = [5, 10, 20] as const
export type RecallK = (typeof RECALL_KS)[number]

export interface QuestionScore {
  /** LoCoMo's category number, or a benchmark's own label (BEAM's ability). */
  readonly category: number | string
  /** Share of evidence turns among the first k ranked turns. */
  readonly recall: Record<RecallK, number>
  /** 1 when any evidence turn is among the first k ranked turns. */
  readonly anyHit: Record<RecallK, number>
  /** Share of sessions holding evidence among the first k ranked sessions (see {@link rankSessions}). */
  readonly sessionRecall: Record<RecallK, number>
  /** The conversation's sample id, for per-conversation figures. */
  readonly conversation: string
}

/**
 * Scores one question: `rankedTurns` are the source turns of augment's items in rank order (already
 * expanded and de-duplicated); recall@k is the share of evidence turns among the first k, session recall@k
 * the share of evidence sessions among the first k sessions those turns come from.
 */
export function scoreQuestion(
  category: number | string,
  evidence: readonly string[],
  rankedTurns: readonly string[],
  conversation = '',
): QuestionScore {
  const recall = {} as Record<RecallK, number>
  const anyHit = {} as Record<RecallK, number>
  const sessionRecall = {} as Record<RecallK, number>
  const evidenceSessions = [...new Set(evidence.map(sessionOfTurn))]
  const rankedSessions = rankSessions(rankedTurns)
  for (const k of RECALL_KS) {
    const top = new Set(rankedTurns.slice(0, k))
    const found = evidence.filter((turn) => top.has(turn)).length
    recall[k] = found / evidence.length
    anyHit[k] = found > 0 ? 1 : 0
    const topSessions = new Set(rankedSessions.slice(0, k))
    sessionRecall[k] = evidenceSessions.filter((s) => topSessions.has(s)).length / evidenceSessions.length
  }
  return { category, recall, anyHit, sessionRecall, conversation }
}

/** The session of a LoCoMo turn id: `D3:12` → `D3`. */
export function sessionOfTurn(turn: string): string {
  const colon = turn.indexOf(':')
  return colon < 0 ? turn : turn.slice(0, colon)
}

/** The sessions of ranked turns in rank order, each once (where it first appears). */
export function rankSessions(rankedTurns: readonly string[]): string[] {
  return [...new Set(rankedTurns.map(sessionOfTurn))]
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

export type Metric = 'recall' | 'anyHit' | 'sessionRecall'

/** Averages per category and for categories 1-4 together: `{ "1-4": { "5": r, ... }, "1": {...}, ... }`. */
export function summarise(scores: readonly QuestionScore[], metric: Metric): Table {
  const table = summariseBy(scores, metric, (score) =>
    isHeadline(score) ? ['1-4', String(score.category)] : [String(score.category)],
  )
  return Object.fromEntries(
    ['1-4', '1', '2', '3', '4', '5'].flatMap((key) => (table[key] ? [[key, table[key]]] : [])),
  )
}

/**
 * Averages of `metric` per group and k; a score counts in every group `groupsOf` names for it (given its
 * index in `scores`). Groups keep the order they are first named in.
 */
export function summariseBy(
  scores: readonly QuestionScore[],
  metric: Metric,
  groupsOf: (score: QuestionScore, index: number) => readonly string[],
): Table {
  const groups = new Map<string, QuestionScore[]>()
  scores.forEach((score, index) => {
    for (const key of groupsOf(score, index)) groups.set(key, [...(groups.get(key) ?? []), score])
  })
  const table: Table = {}
  for (const [key, group] of groups)
    table[key] = Object.fromEntries(
      RECALL_KS.map((k) => [String(k), round(mean(group.map((s) => s[metric][k])))]),
    )
  return table
}

/** Recall@10 of one conversation's category 1-4 questions, turn- and session-level. */
export interface ConversationRecall {
  readonly conversation: string
  readonly questions: number
  readonly recall: number
  readonly sessionRecall: number
}

/** Recall@10 (categories 1-4) per conversation, in first-seen order. */
export function perConversation(scores: readonly QuestionScore[]): ConversationRecall[] {
  const groups = new Map<string, QuestionScore[]>()
  for (const score of scores) {
    if (isHeadline(score)) groups.set(score.conversation, [...(groups.get(score.conversation) ?? []), score])
  }
  return [...groups].map(([conversation, group]) => ({
    conversation,
    questions: group.length,
    recall: round(mean(group.map((s) => s.recall[10]))),
    sessionRecall: round(mean(group.map((s) => s.sessionRecall[10]))),
  }))
}

/** Sample standard deviation (n − 1); 0 for fewer than two values. */
export function standardDeviation(values: readonly number[]): number {
  if (values.length < 2) return 0
  const m = mean(values)
  return round(Math.sqrt(values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1)))
}

function isHeadline(score: QuestionScore): boolean {
  return typeof score.category === 'number' && score.category >= 1 && score.category <= 4
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}
