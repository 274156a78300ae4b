import { selectQueryTerms } from '../fts/match-query'

export interface TsqueryOptions {
  readonly mode?: 'or' | 'and'
  readonly stopWords?: ReadonlySet<string>
  readonly prefixLastTerm?: boolean
}

/**
 * Turns arbitrary user text into `to_tsquery` input, or `null` when nothing searchable is left. The terms
 * are the ones SQLite searches (`selectQueryTerms`); each becomes one quoted operand, so nothing the user
 * typed is read as tsquery syntax (`&`, `|`, `!`, `<->`, `:*`, parentheses). PostgreSQL stems and folds each
 * operand with the text search configuration; an operand its parser splits in two becomes a phrase.
 *
 * @example
 * buildTsquery('deploy "staging" & prod*') // "'deploy' | 'staging' | 'prod'"
 * buildTsquery('deploy stag', { mode: 'and', prefixLastTerm: true }) // "'deploy' & 'stag':*"
 */
export function buildTsquery(text: string, options: TsqueryOptions = {}): string | null {
  const operands = tsqueryOperands(text, options)
  return operands && operands.join(options.mode === 'and' ? ' & ' : ' | ')
}

/** The quoted `to_tsquery` operands `buildTsquery` joins, one per searched word, or `null`. */
export function tsqueryOperands(text: string, options: Omit<TsqueryOptions, 'mode'> = {}): string[] | null {
  const terms = selectQueryTerms(text, options.stopWords ? { stopWords: options.stopWords } : {})
  if (terms === null) return null
  const operands = terms.map(quoteOperand)
  if (options.prefixLastTerm) operands[operands.length - 1] += ':*'
  return operands
}

/** A tsquery quoted operand: inside single quotes, a quote is doubled and a backslash escapes. */
function quoteOperand(term: string): string {
  return `'${term.replace(/['\\]/g, (c) => (c === "'" ? "''" : '\\\\'))}'`
}
