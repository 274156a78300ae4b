import type { EntityHistory, HistoryFact } from 'hymem'
import { EXIT_USAGE, ExitError } from '../exit-error'
import { createStyle, type Style } from '../format/style'
import { truncate } from '../format/table'
import { type CliContext, colorEnabled } from '../io'
import { withHyMem } from '../open-hymem'
import type { GlobalOptions } from '../program'

/** Options of `hymem history`. */
export interface HistoryCommandOptions extends GlobalOptions {
  readonly json?: boolean
}

/** Prints the history of an entity's facts: supersede chains, retractions, evidence and both clocks. */
export async function historyCommand(
  entity: string,
  options: HistoryCommandOptions,
  ctx: CliContext,
): Promise<EntityHistory> {
  if (entity.trim() === '') throw new ExitError(EXIT_USAGE, 'history needs an entity, e.g. hymem history api')
  const history = await withHyMem(options, ctx, (hymem) => hymem.history(entity), { quiet: true })
  ctx.stdout.write(
    options.json
      ? `${JSON.stringify(history, null, 2)}\n`
      : renderHistory(history, createStyle(colorEnabled(ctx))),
  )
  return history
}

const day = (iso: string | null) => (iso === null ? '?' : iso.slice(0, 10))

/** The readable form of an entity's history, oldest first. */
export function renderHistory(history: EntityHistory, style: Style): string {
  if (history.facts.length === 0) return `No facts about ${history.entity} yet.\n`
  const lines = [style.bold(`History of ${history.entity} (${history.facts.length} facts, oldest first)`)]
  for (const fact of history.facts) lines.push(...renderFact(fact, style))
  return `${lines.join('\n')}\n`
}

function renderFact(fact: HistoryFact, style: Style): string[] {
  const until = fact.validTo ? ` until ${day(fact.validTo)}` : ''
  const state = fact.status === 'active' ? '' : ` [${fact.status}]`
  const derived = fact.derived ? ' (inferred)' : ''
  const run = fact.learnedInRun === null ? '' : ` in dream run ${fact.learnedInRun}`
  const lines = [
    `  ${style.cyan(`${fact.subject} —${fact.predicate}→ ${fact.object}`)}${derived}${state}  #${fact.id}  conf ${fact.confidence.toFixed(2)}`,
    style.dim(`    true since ${day(fact.becameTrueAt)}${until}; learned ${day(fact.learnedAt)}${run}`),
  ]
  if (fact.supersededBy)
    lines.push(
      `    superseded by ${fact.supersededBy.subject} —${fact.supersededBy.predicate}→ ${fact.supersededBy.object}`,
    )
  for (const old of fact.supersedes)
    lines.push(`    replaced ${old.subject} —${old.predicate}→ ${old.object}`)
  if (fact.retraction)
    lines.push(
      `    retracted ${day(fact.retraction.at)}${fact.retraction.reason ? `: ${fact.retraction.reason}` : ''}`,
    )
  for (const evidence of fact.evidence) {
    const sign = evidence.polarity === 1 ? '+' : '−'
    const text = evidence.text ? ` "${truncate(evidence.text, 80)}"` : ''
    lines.push(style.dim(`    ${sign} ${day(evidence.observedAt)} ${evidence.source}${text}`))
  }
  return lines
}
