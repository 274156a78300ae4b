import { cleanPhrase, VERB_START } from './noun-phrase'
import { ADDRESSEE, EVERYONE, isPerson, type SubjectScope } from './scope'
import { CLAUSE_VERBS, isVerbForm } from './verbs'

const AUX = new Set(
  (
    'do does did am is are was were have has had will shall not never no longer currently now still also ' +
    'always mostly mainly primarily usually generally typically just already only really actually all ' +
    'both definitely heavily exclusively officially recently basically been being strongly much totally ' +
    'completely finally eventually successfully then too can even ever normally previously formerly ' +
    'originally largely fully personally internally automatically rarely often get gets got honestly frankly ' +
    'seriously truly genuinely literally'
  ).split(' '),
)

/** Verbs of ceasing before a gerund: "we stopped relying on X" negates the gerund's fact. */
const CESSATION = new Set(['stopped', 'stop', 'stops', 'quit', 'quitting', 'ceased'])

const DISCOURSE =
  /^(?:(?:so|also|yeah|yes|ok|okay|well|and|but|right|anyway|actually|basically|honestly|fyi|fwiw|tbh|imo|imho|personally|lol|hmm|btw|note|currently|nowadays|today|now|these days|right now|at work|at the moment|for now|in production|in prod|by the way|for the record|just so you know|as you know|to be clear|(?:do not forget|remember|keep in mind)(?: that)?)\b[,:]?\s*)+/i

const TIME_LEAD =
  /^(?:last|this|next|earlier this|later this) (?:year|month|week|quarter|sprint)|^(?:in|since) (?:19|20)\d\d|^(?:yesterday|recently|lately|today|at work|at my job|here|internally|in production)\b/i

/** How the clause before a verb was read. */
export interface SubjectParse {
  subject: string
  negated: boolean
  never: boolean
  auxWords: string[]
  /** The verb is a gerund after "stopped" / "quit" ("we stopped relying on X"): negation flips. */
  ceased?: boolean
  /** Other subjects coordinated with `subject` ("Tom and Jerry use Vim" → Tom, with Jerry here). */
  coSubjects?: string[]
}

/** Whether peeled auxiliaries negate the verb (not, never, no longer). */
function isNegation(auxWords: readonly string[]): boolean {
  return auxWords.includes('not') || auxWords.includes('never') || auxWords.join(' ').includes('no longer')
}

const INCLUSIVE_WE = /^(?:we all|we both|both of us|all of us|all of we)$/

/**
 * Resolves a subject phrase: I/me → `user`, we/our team → `team`, else the cleaned noun phrase. With a
 * scope, "you" is the addressee (when the turn has one) and an inclusive "we both" is everyone.
 */
export function resolveSubject(phrase: string, scope?: SubjectScope): string | undefined {
  const p = phrase.trim().replace(/,$/, '')
  const lower = p.toLowerCase()
  if (lower === 'i' || lower === 'me' || lower === 'myself') return 'user'
  if (scope) {
    if (lower === 'you' || lower === 'you both' || lower === 'you two')
      return scope.addressee ? ADDRESSEE : undefined
    if (INCLUSIVE_WE.test(lower)) return EVERYONE
  }
  if (
    /^(?:we|us|(?:our|my|the) (?:team|squad|crew)|our company|our org|our organi[sz]ation|we all|we both)$/.test(
      lower,
    )
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
export function parseSubject(
  rawPrefix: string,
  fallback: string | undefined,
  scope?: SubjectScope,
): SubjectParse | undefined {
  // "The worker reads and writes to S3": coordinated verbs share the subject before the first one.
  const coordinated = /\s+([a-z]+)\s*(?:,\s*)?(?:and|or)\s+$/.exec(rawPrefix)
  const prefix =
    coordinated && isVerbForm(coordinated[1] ?? '') ? `${rawPrefix.slice(0, coordinated.index)} ` : rawPrefix
  if (scope) {
    const pair = personAndSpeaker(prefix, scope)
    if (pair) return pair
  }
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
  // "I used to prefer X": a past habit, so not the present fact.
  const habit = /\s+used to\s*$/i.exec(clause)
  const tokens = (habit ? clause.slice(0, habit.index) : clause)
    .replace(DISCOURSE, '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
  const auxWords: string[] = []
  while (tokens.length > 0) {
    const word = (tokens.at(-1) ?? '').toLowerCase()
    if (!AUX.has(word) && !CESSATION.has(word)) break
    auxWords.unshift((tokens.pop() ?? '').toLowerCase())
  }
  const ceased = auxWords.some((w) => CESSATION.has(w))
  const denied = isNegation(auxWords)
  const negated = habit !== null || (ceased ? !denied : denied)
  const never = !ceased && auxWords.includes('never')
  const flags = ceased ? { ceased } : {}
  let head = tokens.join(' ').replace(DISCOURSE, '').trim()
  const pronoun = /\s(I|we)$/i.exec(head)
  if (pronoun && TIME_LEAD.test(head)) head = pronoun[1] ?? head
  if (head === '') {
    const ellipsis =
      /\b(?:and|but|then)\s*$/i.test(prefix.trim()) || auxWords.length > 0 || prefix.trim() === ''
    if (fallback === undefined || !ellipsis || prefix.trim() === '') return undefined
    return { subject: fallback, negated, never, auxWords, ...flags }
  }
  const resolved = resolveSubject(head, scope)
  if (resolved === undefined) return undefined
  // "We both use Linux": with a scope, an inclusive we is every human author, not the speaker's team.
  const inclusive =
    scope && resolved === 'team' && /^we$/i.test(head) && auxWords.some((w) => w === 'both' || w === 'all')
  const subject = inclusive ? EVERYONE : resolved
  // "Tom and Jerry use Vim", "Ana, Bo and Cy use Vim": a clause-initial list of names shares the verb.
  const names = /^\s*((?:[A-Z][\w.-]*\s*,\s*){0,3}[A-Z][\w.-]*)\s+and\s+[A-Z][\w.-]*\s+[a-z ]*$/.exec(prefix)
  const coSubjects = (names?.[1] ?? '')
    .split(/\s*,\s*/)
    .map((n) => (n ? resolveSubject(n, scope) : undefined))
    .filter((n): n is string => n !== undefined && n !== subject)
  return { subject, negated, never, auxWords, ...flags, ...(coSubjects.length > 0 ? { coSubjects } : {}) }
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
  const negated = isNegation(auxWords)
  return { subject: speaker, negated, never: auxWords.includes('never'), auxWords }
}

const LEADING_NP =
  /^((?:the |our |my )?[\w.-]+(?: [\w.-]+){0,2}?) (?:is|are|was|were|has|have|runs?|uses?|depends|connects|talks)\b/i

/** A noun phrase followed by any lower-case word, kept only when that word is a finite verb ("reads"). */
const LEADING_NP_ANY_VERB = /^((?:the |our |my )?[\w.-]+(?: [\w.-]+){0,2}?) ([a-z]+)\b/i

/** The subject opening a sentence, used for clauses without their own ("... and deploy to Fly.io"). */
export function leadingSubject(sentence: string, scope?: SubjectScope): string | undefined {
  const s = sentence.replace(DISCOURSE, '')
  const m = /^(I|we|our team|my team|the team)\b/i.exec(s)
  if (m) return resolveSubject(m[1] ?? '', scope)
  const np = LEADING_NP.exec(s) ?? LEADING_NP_ANY_VERB.exec(s)
  if (np && np.length > 2 && !CLAUSE_VERBS.has(np[2] ?? '')) return undefined
  return np ? resolveSubject(np[1] ?? '', scope) : undefined
}

/**
 * "Bob and I both use Vim" (or "I and Bob"): the speaker with a named peer, only when the peer is known.
 * Without a scope such compound subjects give no fact.
 */
function personAndSpeaker(prefix: string, scope: SubjectScope): SubjectParse | undefined {
  const m =
    /^\s*([A-Za-z][\w.-]*(?: [A-Z][\w.-]*)?) and (?:I|me)((?: [a-z]+)*)\s*$/.exec(
      prefix.replace(DISCOURSE, ''),
    ) ?? /^\s*I and ([A-Za-z][\w.-]*(?: [A-Z][\w.-]*)?)((?: [a-z]+)*)\s*$/.exec(prefix.replace(DISCOURSE, ''))
  const name = m?.[1]
  if (!m || name === undefined || !isPerson(name, scope) || name.toLowerCase() === 'i') return undefined
  const auxWords = (m[2] ?? '').trim().split(/\s+/).filter(Boolean)
  if (!auxWords.every((w) => AUX.has(w))) return undefined
  const negated = isNegation(auxWords)
  return { subject: 'user', negated, never: auxWords.includes('never'), auxWords, coSubjects: [name] }
}
