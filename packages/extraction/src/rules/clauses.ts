import { CLAUSE_VERBS, isVerbForm } from './verbs'

/** Boundaries that always end a clause. */
const HARD = /\s*;\s*|\s+whereas\s+|,\s*whereas\s+/gi
/** Conjunctions that end a clause only when a new subject + verb follows ("..., and Ledgerly depends on X"). */
const SOFT = /,\s*(?:and|but|while|so|yet|although|though)\s+|\s+(?:and|but)\s+/gi

const PRONOUN_SUBJECT = /^(?:i|we|they|he|she|it|you|there|this|that)$/i
const NP_STOP = new Set(
  (
    'to on in at for with from by as via into onto of over under and or but not no never also still then ' +
    'now just only always usually currently because since if when while so than instead rather'
  ).split(' '),
)
const AUX_OR_ADVERB = new Set(
  'not never also still now currently always usually just already really all both mostly mainly only no longer'.split(
    ' ',
  ),
)

function words(text: string): string[] {
  return text
    .split(/\s+/)
    .map((w) => w.replace(/^["'([]+|["')\],.!?:]+$/g, ''))
    .filter(Boolean)
}

/**
 * True when `text` opens with a subject and a finite verb: a pronoun or a noun phrase of up to four words
 * without verbs or prepositions, optional adverbs, then a verb ("my team uses", "logs go", "the web app is").
 */
export function startsWithSubjectVerb(text: string): boolean {
  const tokens = words(text)
  const first = tokens[0]
  if (first === undefined) return false
  let i: number
  if (PRONOUN_SUBJECT.test(first)) i = 1
  else {
    i = 0
    while (i < tokens.length && i < 4) {
      const t = tokens[i] ?? ''
      const lower = t.toLowerCase()
      // An ambiguous form opening the phrase is a noun ("logs go to Loki"); later, any verb form ends it.
      if (NP_STOP.has(lower) || CLAUSE_VERBS.has(lower) || (i > 0 && isVerbForm(t))) break
      i++
    }
    if (i === 0) return false
  }
  while (i < tokens.length && AUX_OR_ADVERB.has((tokens[i] ?? '').toLowerCase())) i++
  const verb = tokens[i]
  return verb !== undefined && (isVerbForm(verb) || CLAUSE_VERBS.has(verb.toLowerCase()))
}

/** True when a span contains any lower-case verb form. */
function hasVerb(text: string): boolean {
  return words(text).some((w) => isVerbForm(w) || CLAUSE_VERBS.has(w.toLowerCase()) || /^(?:I|we)$/i.test(w))
}

/**
 * Splits one sentence into clauses: always at ";" and "whereas", and at ", and" / ", but" / ", while" /
 * ", so" / bare "and" / "but" when the left side has a verb and the right side opens with its own subject
 * and verb. "Tom and Jerry use Vim", "we read and write to S3" and "we use React, Vite and Vitest" stay whole.
 */
export function splitClauses(sentence: string): string[] {
  const out: string[] = []
  for (const part of sentence.split(HARD)) {
    let start = 0
    let cursor = 0
    SOFT.lastIndex = 0
    for (const m of part.matchAll(SOFT)) {
      const at = m.index ?? 0
      if (at < cursor) continue
      const left = part.slice(start, at)
      const right = part.slice(at + m[0].length)
      if (hasVerb(left) && startsWithSubjectVerb(right)) {
        out.push(left.trim())
        start = at + m[0].length
      }
      cursor = at + m[0].length
    }
    out.push(part.slice(start).trim())
  }
  return out.map((c) => c.replace(/^[,\s]+|[,\s]+$/g, '')).filter((c) => c.length > 0)
}
