import { type QueryWord, queryWords } from './query-words'

/** Options for {@link buildMatchQuery}. */
export interface MatchQueryOptions {
  /** `'or'` (default) finds rows containing any term; `'and'` requires every term. */
  readonly mode?: 'or' | 'and'
  /** Keep at most this many distinct terms (default {@link DEFAULT_MAX_TERMS}); the rest are ignored. */
  readonly maxTerms?: number
  /**
   * Lower-case words to leave out, e.g. {@link ENGLISH_STOP_WORDS}. A query made only of stop words still
   * searches them rather than returning nothing.
   */
  readonly stopWords?: ReadonlySet<string>
  /** Turn the last term into a prefix query (`"term"*`), for search-as-you-type. */
  readonly prefixLastTerm?: boolean
}

/** How many distinct terms {@link buildMatchQuery} keeps when `maxTerms` is not given. */
export const DEFAULT_MAX_TERMS = 32

const ASCII_ONLY = /^\p{ASCII}*$/u

// Case-folds only ASCII: FTS5 folds ASCII case too, so two terms with one key are the same FTS5 token.
// Folding more (full Unicode lower-casing, accents) could merge terms FTS5 keeps apart and lose matches.
function dedupeKey(term: string): string {
  return ASCII_ONLY.test(term) ? term.toLowerCase() : term
}

function quote(term: string): string {
  return `"${term.replaceAll('"', '""')}"`
}

/**
 * Turns arbitrary user text into a safe FTS5 `MATCH` expression, or `null` when nothing searchable is
 * left. Every term is a double-quoted FTS5 string, so operators typed by the user (`AND`, `NEAR`, `*`,
 * `:`, `-`, `^`, parentheses, quotes) are searched as plain words or dropped as separators; the result
 * never makes FTS5 raise a syntax error. Terms are the words the index holds (`queryWords`: spaced scripts
 * split exactly where FTS5's `unicode61` tokenizer splits them, unspaced ones as phrases of their indexed
 * characters, inflected ones as prefixes), de-duplicated.
 *
 * @example
 * ```ts
 * buildMatchQuery('deploy "staging" AND prod*') // '"deploy" OR "staging" OR "AND" OR "prod"'
 * buildMatchQuery('what is the plan', { stopWords: ENGLISH_STOP_WORDS }) // '"plan"'
 * buildMatchQuery('?!') // null
 * db.prepare('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?').all(query)
 * ```
 */
export function buildMatchQuery(text: string, options: MatchQueryOptions = {}): string | null {
  const terms = selectQueryTerms(text, options)
  if (terms === null) return null
  const last = terms.length - 1
  const quoted = terms.map(
    (term, at) => quote(term.text) + (term.prefix || (options.prefixLastTerm && at === last) ? '*' : ''),
  )
  return quoted.join(options.mode === 'and' ? ' AND ' : ' OR ')
}

/**
 * The distinct terms of `text` a keyword query searches, in order: its `queryWords`, stop words left out
 * (unless nothing else is left), at most `maxTerms`. `null` when nothing searchable is left. Every backend
 * builds its query from these, so all of them search the same words.
 */
export function selectQueryTerms(
  text: string,
  options: Pick<MatchQueryOptions, 'maxTerms' | 'stopWords'> = {},
): QueryWord[] | null {
  if (typeof text !== 'string') return null
  const maxTerms = normalizeMaxTerms(options.maxTerms)
  const stopWords = options.stopWords
  const kept = new Map<string, QueryWord>()
  const stopped = new Map<string, QueryWord>()
  for (const term of queryWords(text)) {
    const key = dedupeKey(term.text) + (term.prefix ? '*' : '')
    if (stopWords?.has(term.source.toLowerCase())) {
      if (stopped.size < maxTerms && !stopped.has(key)) stopped.set(key, term)
      continue
    }
    if (!kept.has(key)) kept.set(key, term)
    if (kept.size >= maxTerms) break
  }
  const terms = [...(kept.size > 0 ? kept : stopped).values()]
  return terms.length === 0 ? null : terms
}

function normalizeMaxTerms(maxTerms: number | undefined): number {
  if (maxTerms === undefined || Number.isNaN(maxTerms)) return DEFAULT_MAX_TERMS
  return Math.max(1, Math.floor(maxTerms))
}
