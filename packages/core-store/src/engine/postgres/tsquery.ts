import { selectQueryTerms } from '../../text/match-query'

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
  const terms = tsqueryTerms(text, options)
  return terms?.map((term) => term.operand).join(options.mode === 'and' ? ' & ' : ' | ') ?? null
}

/** One searched word and its quoted `to_tsquery` operand. */
export interface TsqueryTerm {
  readonly word: string
  readonly operand: string
}

/** The words `buildTsquery` searches, each with its operand, or `null` when nothing searchable is left. */
export function tsqueryTerms(text: string, options: Omit<TsqueryOptions, 'mode'> = {}): TsqueryTerm[] | null {
  const words = selectQueryTerms(text, options.stopWords ? { stopWords: options.stopWords } : {})
  if (words === null) return null
  const last = words.length - 1
  return words.map((word, at) => ({
    word: word.text,
    operand: quoteOperand(word.text) + (word.prefix || (options.prefixLastTerm && at === last) ? ':*' : ''),
  }))
}

/** A tsquery quoted operand: inside single quotes, a quote is doubled and a backslash escapes. */
function quoteOperand(term: string): string {
  return `'${term.replace(/['\\]/g, (c) => (c === "'" ? "''" : '\\\\'))}'`
}
