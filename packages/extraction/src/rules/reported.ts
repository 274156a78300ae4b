import type { SubjectScope } from './scope'

const OPENER = /^(?:(?:so|also|btw|fyi|and|but|oh|well|yeah|ok(?:ay)?)\b,?\s+)*/i
const REPORTING =
  'says|said|told (?:me|us|you|him|her|them)|tells (?:me|us|you)|mentioned|wrote|writes|confirmed|explained'
const REPORT = new RegExp(
  `^(I|[A-Za-z][\\w.-]*(?: [A-Z][\\w.-]*)?)\\s+(?:also |just |already )?(?:${REPORTING})(?:\\s+that)?[,:]?\\s+(.+)$`,
)
const THIRD_PERSON = /^(?:he|she|they)\b/i
const OTHER_PERSON = /^(?:i|we|you|my|our|your|me|us)\b/i
const FIRST_PERSON = /^(?:i|we|my|our)\b/i

/** An indirect report: who reported it, and the reported clause with its pronoun replaced by the reporter. */
export interface ReportedClause {
  /** `I` (the turn's author) or the surface name of a known peer. */
  reporter: string
  clause: string
}

/**
 * Reads indirect speech by a known person ("Bob says he prefers Go" → Bob, "Bob prefers Go") or by the
 * speaker about themselves ("I told you I avoid ORMs" → "I avoid ORMs"). The reported clause's "he", "she"
 * or "they" is the reporter; "I", "we" or "you" inside someone else's report are ambiguous and give nothing.
 */
export function reportedClause(sentence: string, scope: SubjectScope): ReportedClause | undefined {
  const m = REPORT.exec(sentence.replace(OPENER, ''))
  const reporter = m?.[1]
  const clause = m?.[2]?.trim()
  if (!reporter || !clause) return undefined
  if (reporter === 'I') return FIRST_PERSON.test(clause) ? { reporter, clause } : undefined
  if (!scope.people.has(reporter.toLowerCase())) return undefined
  if (THIRD_PERSON.test(clause)) return { reporter, clause: clause.replace(THIRD_PERSON, reporter) }
  if (OTHER_PERSON.test(clause)) return undefined
  return { reporter, clause }
}
