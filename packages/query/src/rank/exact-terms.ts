import { ENGLISH_STOP_WORDS } from '@hymem/core-store'
import type { RetrievalReason } from '../reasons'
import { escapeRegExp } from '../reg-exp'

/** Most candidate turns an identifier may occur in and still be rare enough to lead. */
export const MAX_EXACT_TERM_TURNS = 5

/** Longest message prefix read for identifiers (characters). */
const MAX_SCAN_CHARS = 2000

/**
 * Most identifiers looked for in the candidates: each is matched against every candidate's text, and a pasted
 * stack trace or file names hundreds.
 */
export const MAX_EXACT_TERMS = 8

/** Runs of letters, digits and the joiners identifiers are made of (`ERR_OSSL`, `v2.3.1`, `useEffect`). */
const TOKEN = /[\p{L}\p{N}]+(?:[._\-/:][\p{L}\p{N}]+)*/gu

/**
 * The identifiers a message names: tokens no dictionary word looks like, an error code, a version, a file,
 * a symbol (`ERR_OSSL_EVP_UNSUPPORTED`, `E11000`, `v2.3.1`, `config.yaml`, `useEffect`, `CORS`), the first
 * {@link MAX_EXACT_TERMS}. Plain words, numbers and dates are not identifiers.
 */
export function identifiersOf(message: string): string[] {
  const found = new Set<string>()
  for (const [token] of message.slice(0, MAX_SCAN_CHARS).matchAll(TOKEN)) {
    if (isIdentifier(token)) found.add(token)
    if (found.size >= MAX_EXACT_TERMS) break
  }
  return [...found]
}

function isIdentifier(token: string): boolean {
  const parts = token.split(/[._\-/:]/)
  if (parts.some(isCode)) return true
  if (/[._]/.test(token) && parts.filter((part) => /\p{L}/u.test(part)).some((part) => part.length > 1))
    return true
  if (/\p{Ll}\p{Lu}/u.test(token)) return true
  // An acronym (`CORS`, `USCIS`), not a word in capitals for emphasis ("mention ONLY ten").
  return (
    /^[\p{Lu}\p{N}]+$/u.test(token) &&
    (token.match(/\p{Lu}/gu)?.length ?? 0) >= 3 &&
    !ENGLISH_STOP_WORDS.has(token.toLowerCase())
  )
}

/** Letters and digits in one word (`E11000`, `v2`, `sha256`), but not a count with its unit (`15th`, `9am`, `4GB`). */
function isCode(part: string): boolean {
  return /\p{L}/u.test(part) && /\p{N}/u.test(part) && !/^\p{N}+\p{L}{1,3}$/u.test(part)
}

/** A candidate turn (the candidates come best first). */
export interface TextCandidate {
  readonly id: number
  readonly reasons: RetrievalReason[]
}

/**
 * Moves the turns that contain one of the message's rare identifiers (occurring in at most
 * {@link MAX_EXACT_TERM_TURNS} candidates) ahead of the rest, keeping the order within each group, and marks
 * them `exact_term`: however near a paraphrase's vector, it never outranks the exact match of an error code or
 * a version the user typed. `textOf` gives a candidate's text.
 */
export function leadWithExactTerms<T extends TextCandidate>(
  message: string,
  candidates: readonly T[],
  textOf: (id: number) => string | undefined,
): T[] {
  const terms = identifiersOf(message)
  if (terms.length === 0) return [...candidates]
  const matchedTerm = new Map<number, string>()
  for (const term of terms) {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(term)}(?![\\p{L}\\p{N}_])`, 'iu')
    const holders = candidates.filter((candidate) => pattern.test(textOf(candidate.id) ?? ''))
    if (holders.length === 0 || holders.length > MAX_EXACT_TERM_TURNS) continue
    for (const holder of holders) if (!matchedTerm.has(holder.id)) matchedTerm.set(holder.id, term)
  }
  if (matchedTerm.size === 0) return [...candidates]
  const lead: T[] = []
  const rest: T[] = []
  for (const candidate of candidates) {
    const term = matchedTerm.get(candidate.id)
    if (term === undefined) rest.push(candidate)
    else {
      candidate.reasons.push({ kind: 'exact_term', term })
      lead.push(candidate)
    }
  }
  return [...lead, ...rest]
}
