import { cleanPhrase, VERB_START } from './noun-phrase'
import { CLAUSE_VERBS, isVerbForm } from './verbs'

const AUX = new Set(
  (
    'do does did am is are was were have has had will shall not never no longer currently now still also ' +
    'always mostly mainly primarily usually generally typically just already only really actually all ' +
    'both definitely heavily exclusively officially recently basically been being strongly much totally ' +
    'completely finally eventually successfully then too can even ever normally previously formerly ' +
    'originally largely fully personally internally automatically rarely often'
  ).split(' '),
)

const DISCOURSE =
  /^(?:(?:so|also|yeah|yes|ok|okay|well|and|but|right|anyway|actually|basically|honestly|fyi|fwiw|tbh|imo|imho|personally|lol|hmm|btw|note|currently|nowadays|today|now|these days|right now|at work|at the moment|for now|in production|in prod|by the way|for the record|just so you know|as you know|to be clear)\b[,:]?\s*)+/i

const TIME_LEAD =
  /^(?:last|this|next|earlier this|later this) (?:year|month|week|quarter|sprint)|^(?:in|since) (?:19|20)\d\d|^(?:yesterday|recently|lately|today|at work|at my job|here|internally|in production)\b/i

/** How the clause before a verb was read. */
export interface SubjectParse {
  subject: string
  negated: boolean
  never: boolean
  auxWords: string[]
  /** Other subjects coordinated with `subject` ("Tom and Jerry use Vim" → Tom, with Jerry here). */
  coSubjects?: string[]
}

/** Resolves a subject phrase: I/me → `user`, we/our team → `team`, else the cleaned noun phrase. */
export function resolveSubject(phrase: string): string | undefined {
  const p = phrase.trim().replace(/,$/, '')
  const lower = p.toLowerCase()
  if (lower === 'i' || lower === 'me' || lower === 'myself') return 'user'
  if (
    /^(?:we|us|our team|my team|the team|our company|our org|our organi[sz]ation|we all|we both)$/.test(lower)
  )
    return 'team'
  if (
    /^(?:you|it|they|he|she|this|that|there|which|who|what|one|someone|somebody|everyone|people|nobody)$/.test(
      lower,
    )
  ) {
    return undefined
  }
  const words = lower.split(/\s+/)
  // "Never use var.": an adverb or auxiliary alone is no subject.
  if (words.length === 1 && AUX.has(lower)) return undefined
  if (
    words.some(
      (w) =>
        VERB_START.has(w) ||
        /^(?:if|when|what|that|because|and|or|but|so|to|than|as|whether|of|for|with|in|on|at|from|by|you|i|we|they|it|said|says|think|thinks|told)$/.test(
          w,
        ),
    )
  ) {
    return undefined
  }
  return cleanPhrase(p, 4)
}

/**
 * Reads the text before a verb: the last clause (after a comma, "and", "but", ";"), discourse openers
 * dropped, trailing auxiliaries/adverbs/negation peeled off. `fallback` is used when the clause has no subject
 * of its own ("We use X and deploy to Y").
 */
export function parseSubject(rawPrefix: string, fallback: string | undefined): SubjectParse | undefined {
  // "The worker reads and writes to S3": coordinated verbs share the subject before the first one.
  const coordinated = /\s+([a-z]+)\s*(?:,\s*)?(?:and|or)\s+$/.exec(rawPrefix)
  const prefix =
    coordinated && isVerbForm(coordinated[1] ?? '') ? `${rawPrefix.slice(0, coordinated.index)} ` : rawPrefix
  const pieces = prefix.split(/,|;|\band\b|\bbut\b|\bthen\b/i)
  const clause = pieces.at(-1) ?? ''
  // "Marco and I maintain X": a compound subject, which the rules do not split.
  if (
    pieces.length > 1 &&
    /\band\s+(?:I|we)\s*$/i.test(prefix) &&
    /^\s*(?:[A-Z][\w.-]*\s*){1,2}$/.test(pieces.at(-2) ?? '')
  ) {
    return undefined
  }
  const tokens = clause.replace(DISCOURSE, '').trim().split(/\s+/).filter(Boolean)
  const auxWords: string[] = []
  while (tokens.length > 0 && AUX.has((tokens.at(-1) ?? '').toLowerCase())) {
    auxWords.unshift((tokens.pop() ?? '').toLowerCase())
  }
  const negated =
    auxWords.includes('not') || auxWords.includes('never') || auxWords.join(' ').includes('no longer')
  const never = auxWords.includes('never')
  let head = tokens.join(' ').replace(DISCOURSE, '').trim()
  const pronoun = /\s(I|we)$/i.exec(head)
  if (pronoun && TIME_LEAD.test(head)) head = pronoun[1] ?? head
  if (head === '') {
    const ellipsis =
      /\b(?:and|but|then)\s*$/i.test(prefix.trim()) || auxWords.length > 0 || prefix.trim() === ''
    if (fallback === undefined || !ellipsis || prefix.trim() === '') return undefined
    return { subject: fallback, negated, never, auxWords }
  }
  const subject = resolveSubject(head)
  if (subject === undefined) return undefined
  // "Tom and Jerry use Vim", "Ana, Bo and Cy use Vim": a clause-initial list of names shares the verb.
  const names = /^\s*((?:[A-Z][\w.-]*\s*,\s*){0,3}[A-Z][\w.-]*)\s+and\s+[A-Z][\w.-]*\s+[a-z ]*$/.exec(prefix)
  const coSubjects = (names?.[1] ?? '')
    .split(/\s*,\s*/)
    .map((n) => (n ? resolveSubject(n) : undefined))
    .filter((n): n is string => n !== undefined && n !== subject)
  return { subject, negated, never, auxWords, ...(coSubjects.length > 0 ? { coSubjects } : {}) }
}

/**
 * The speaker as the subject of a clause that names none ("Not a fan of X.", "Honestly, love Svelte.",
 * "Never using X again."): only when everything before the verb is discourse words, auxiliaries, adverbs
 * or negation.
 */
export function impliedSubject(rawPrefix: string, speaker: 'user' | 'team'): SubjectParse | undefined {
  const auxWords = rawPrefix
    .replace(DISCOURSE, '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((token) => token.toLowerCase())
  if (!auxWords.every((word) => AUX.has(word))) return undefined
  const negated =
    auxWords.includes('not') || auxWords.includes('never') || auxWords.join(' ').includes('no longer')
  return { subject: speaker, negated, never: auxWords.includes('never'), auxWords }
}

const LEADING_NP =
  /^((?:the |our |my )?[\w.-]+(?: [\w.-]+){0,2}?) (?:is|are|was|were|has|have|runs?|uses?|depends|connects|talks)\b/i

/** A noun phrase followed by any lower-case word, kept only when that word is a finite verb ("reads"). */
const LEADING_NP_ANY_VERB = /^((?:the |our |my )?[\w.-]+(?: [\w.-]+){0,2}?) ([a-z]+)\b/i

/** The subject opening a sentence, used for clauses without their own ("... and deploy to Fly.io"). */
export function leadingSubject(sentence: string): string | undefined {
  const s = sentence.replace(DISCOURSE, '')
  const m = /^(I|we|our team|my team|the team)\b/i.exec(s)
  if (m) return resolveSubject(m[1] ?? '')
  const np = LEADING_NP.exec(s) ?? LEADING_NP_ANY_VERB.exec(s)
  if (np && np.length > 2 && !CLAUSE_VERBS.has(np[2] ?? '')) return undefined
  return np ? resolveSubject(np[1] ?? '') : undefined
}
