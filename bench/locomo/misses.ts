import type { EvalQuestion, LocomoConversation } from './dataset'
import { sessionOfTurn } from './score'

/** A question with evidence missing from the top k, and what was ranked there instead. */
export interface Miss {
  readonly id: string
  /** LoCoMo's category number, or BEAM's ability. */
  readonly category: number | string
  readonly question: string
  /** Every evidence turn with its place in the whole ranked list (1-based; null when it was not ranked). */
  readonly evidence: readonly { readonly turn: string; readonly rank: number | null }[]
  /** The top k ranked turns. */
  readonly returned: readonly string[]
}

/** The miss record of a question whose evidence is not all among the first `k` ranked turns, else null. */
export function findMiss(
  question: EvalQuestion & { readonly id: string },
  rankedTurns: readonly string[],
  k: number,
): Miss | null {
  const returned = rankedTurns.slice(0, k)
  const evidence = question.evidence.map((turn) => {
    const place = rankedTurns.indexOf(turn)
    return { turn, rank: place < 0 ? null : place + 1 }
  })
  if (evidence.every(({ rank }) => isReturned(rank, returned.length))) return null
  return { id: question.id, category: question.category, question: question.question, evidence, returned }
}

/** `D1:3` → `Caroline: I went to the support group yesterday…` for every turn of a conversation. */
export function turnTexts(
  conversation: Pick<LocomoConversation, 'sessions'>,
  width = 110,
): Map<string, string> {
  const texts = new Map<string, string>()
  for (const session of conversation.sessions) {
    for (const turn of session.turns) {
      const text = `${turn.speaker}: ${turn.text.replace(/\s+/g, ' ')}`
      texts.set(turn.diaId, text.length > width ? `${text.slice(0, width - 1)}…` : text)
    }
  }
  return texts
}

/**
 * A miss for reading: the question, each evidence turn marked found (`+`) or missing (`-`) with its rank in
 * the whole list (`#14`, `#-` when it was not ranked at all), then the returned turns in rank order (`*` marks
 * evidence, `~` a turn from an evidence session).
 */
export function formatMiss(miss: Miss, textOf: ReadonlyMap<string, string>): string[] {
  const evidenceTurns = new Set(miss.evidence.map((e) => e.turn))
  const evidenceSessions = new Set(miss.evidence.map((e) => sessionOfTurn(e.turn)))
  const lines = [`${miss.id} (category ${miss.category}): ${miss.question}`, '  evidence:']
  for (const { turn, rank } of miss.evidence) {
    const place = `#${rank ?? '-'}`.padEnd(4)
    lines.push(
      `    ${isReturned(rank, miss.returned.length) ? '+' : '-'} ${turn.padEnd(7)} ${place} ${textOf.get(turn) ?? ''}`,
    )
  }
  lines.push(`  returned (top ${miss.returned.length}):`)
  miss.returned.forEach((turn, i) => {
    const mark = evidenceTurns.has(turn) ? '*' : evidenceSessions.has(sessionOfTurn(turn)) ? '~' : ' '
    lines.push(`    ${String(i + 1).padStart(2)} ${mark} ${turn.padEnd(7)} ${textOf.get(turn) ?? ''}`)
  })
  return lines
}

/** Whether a turn ranked `rank` is among the `returned` first turns. */
function isReturned(rank: number | null, returned: number): boolean {
  return rank !== null && rank <= returned
}
