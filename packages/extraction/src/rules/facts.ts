import type { ExtractedTriple } from '../extractor/types'
import type { Predicate } from '../vocabulary'
import { comparisonAfter, frontedComparison, rivalTriples, withFrontedRivals } from './comparison'
import { copulaFacts } from './copula'
import { clauseTail, cleanPhrase, looksNamed, objectList } from './noun-phrase'
import { RULE_PATTERNS, type RulePattern } from './patterns'
import { isPerson, type SubjectScope } from './scope'
import { impliedSubject, leadingSubject, parseSubject, type SubjectParse } from './subject'
import { isCalendarWord, isKnownTech } from './tech-lexicon'
import { asTestedBy, toolRunsTests } from './tests-subject'
import { versionFacts } from './versions'

/** "can't stand working with Jira", "prefer not to deal with X": the thing is the gerund's object. */
const LIGHT_VERB = /^(?:to\s+)?(?:using|use|working with|work with|dealing with|deal with|touching|touch)\s+/i
/** Stances whose negation ("I don't hate Go") states no stance at all. */
const STANCE: ReadonlySet<Predicate> = new Set(['rejects', 'avoids'])
const INFRA_NOUN =
  /\b(?:service|api|database|db|queue|server|cluster|bucket|cache|gateway|backend|frontend|worker|workers|broker|store|registry|instance|vm|box|replica|primary|team|squad|repo|repository|pipeline)$/i
const PAST =
  /\b(?:previously|formerly|in the past|back then|used to|originally|at first|(?:my|our) (?:previous|former|old|last) (?:job|company|team|employer|startup|role))\b/i
const TEMPORAL =
  /\b(?:since (?:last |early |late )?[\w.-]+(?: \d{4})?|until (?:the )?[\w.-]+(?: \w+)?|as of (?:last |this )?[\w.-]+|last (?:week|month|year|quarter|sprint)|this (?:week|month|year|quarter|sprint)|in (?:19|20)\d\d|from now on|for now|these days|nowadays|no longer|anymore|any more)\b/i

/** "(use) Vitest to test the API, and Playwright to test the web app": each tool with what it tests. */
const PURPOSE_TEST = /(?:^|,\s*(?:and\s+)?|\s+and\s+)([^,]+?)\s+to test\s+([^,]+?)(?=\s*,|\s+and\s+|[.!]?$)/gi

const TESTED_NOUN = /\b(?:app|site|ui|client|cli|library|sdk|module|package|service)$/i

function purposeTests(rest: string): ExtractedTriple[] {
  const out: ExtractedTriple[] = []
  for (const m of clauseTail(rest).matchAll(PURPOSE_TEST)) {
    const tool = cleanPhrase(m[1] ?? '')
    const tested = cleanPhrase(m[2] ?? '')
    if (!tool || !tested) continue
    if (looksNamed(tested) || INFRA_NOUN.test(tested) || TESTED_NOUN.test(tested))
      out.push(triple(tested, 'tested_by', tool, 1))
  }
  return out
}

interface Span {
  start: number
  end: number
}

function overlaps(a: Span, spans: readonly Span[]): boolean {
  return spans.some((b) => a.start < b.end && b.start < a.end)
}

/** An object span that is a clause ("how fast Bun is", "to code in Go"), not a thing. */
const CLAUSE_OBJECT = /^(?:how|what|when|where|why|if|whether|to)\b/i
/** An object span naming one particular thing ("the new UI", "that idea", "my coffee"), not a kind. */
const PARTICULAR_OBJECT =
  /^(?:the|a|an|this|that|these|those|my|our|your|his|her|their|its|some|any|it|them|you)\b/i

function acceptableObject(pattern: RulePattern, object: string, rest = ''): boolean {
  if (isCalendarWord(object)) return false
  if (pattern.plainObject) {
    if (CLAUSE_OBJECT.test(rest)) return false
    const known = isKnownTech(object)
    if (PARTICULAR_OBJECT.test(rest) && !known) return false
    if (!known && !looksNamed(object) && /^\w+ing\b/i.test(object)) return false
  }
  if (pattern.namedObject && !looksNamed(object) && !isKnownTech(object) && !INFRA_NOUN.test(object))
    return false
  if (pattern.knownObject && !isKnownTech(object)) return false
  if (pattern.objectSuffix && !pattern.objectSuffix.test(object)) return false
  return true
}

function triple(subject: string, predicate: Predicate, object: string, polarity: 1 | -1): ExtractedTriple {
  return { subject, predicate, object, polarity }
}

/** Reads one verb match into triples; returns undefined when the clause does not fit the pattern. */
function readMatch(
  pattern: RulePattern,
  sentence: string,
  match: RegExpExecArray,
  fallbackSubject: string | undefined,
  scope: SubjectScope | undefined,
): ExtractedTriple[] | undefined {
  const prefix = sentence.slice(0, match.index)
  const parsed =
    parseSubject(prefix, fallbackSubject, scope) ?? speakerOfBareClause(pattern, sentence, match, prefix)
  const triples = readParsedMatch(pattern, sentence, match, parsed, scope)
  const co = parsed?.coSubjects
  if (!triples || !co || !parsed) return triples
  // A coordinated subject list shares every fact its first member's verb states.
  const shared = triples.filter((t) => t.subject === parsed.subject)
  return [...triples, ...co.flatMap((other) => shared.map((t) => ({ ...t, subject: other })))]
}

/** The implied speaker of a subjectless clause, when the pattern allows one (see `impliedSpeaker`). */
function speakerOfBareClause(
  pattern: RulePattern,
  sentence: string,
  match: RegExpExecArray,
  prefix: string,
): SubjectParse | undefined {
  if (!pattern.impliedSpeaker) return undefined
  const verb = match[0].toLowerCase()
  const speaker = /\bfor (?:us|our team|the team)\b/i.test(sentence) ? 'team' : 'user'
  const parsed = impliedSubject(prefix, speaker)
  if (!parsed) return undefined
  // Without a subject, bare "like" is nearly always the preposition ("Like I said", "Just like Redis, ...").
  if (verb === 'like' && !parsed.negated) return undefined
  if (pattern.impliedSpeaker === 'negatedGerund' && !(parsed.negated && verb.endsWith('ing')))
    return undefined
  return parsed
}

function readParsedMatch(
  pattern: RulePattern,
  sentence: string,
  match: RegExpExecArray,
  subjectParse: SubjectParse | undefined,
  scope: SubjectScope | undefined,
): ExtractedTriple[] | undefined {
  const rest = sentence.slice(match.index + match[0].length).trim()
  let parsed = subjectParse
  if (pattern.shape === 'passiveBy') {
    const by = /^by\s+(.+)$/i.exec(rest)
    const patient = parsed?.subject
    if (!by || !patient || isPerson(patient, scope)) return undefined
    return objectList(by[1] ?? '').map((agent) =>
      triple(agent, pattern.predicate, patient, parsed?.negated ? -1 : 1),
    )
  }
  if (!parsed) return undefined
  // "We stopped relying on X": only a gerund continues a verb of ceasing.
  if (parsed.ceased && !/^\w+ing\b/i.test(match[0])) return undefined
  if (pattern.inlineNegation && /\b(?:not|no longer)\b/i.test(match[0]))
    parsed = { ...parsed, negated: !parsed.negated }
  const isSpeaker = isPerson(parsed.subject, scope)
  if (pattern.speakerOnly && !isSpeaker) return undefined
  if (pattern.thingOnly && isSpeaker) return undefined
  if (pattern.requireNegation) {
    if (!parsed.negated) return undefined
    parsed = { ...parsed, negated: false }
  }
  // "We never stopped using Vim": a denied cessation is a use.
  const unceased = pattern.polarity === -1 && pattern.predicate === 'uses' && parsed.negated
  if (unceased) parsed = { ...parsed, never: false }
  const polarity: 1 | -1 = unceased ? 1 : (pattern.polarity ?? (parsed.negated ? -1 : 1))
  const subject = parsed.subject

  if (pattern.shape === 'fromTo') {
    // "switched (our CI) from X to Y", "moved off X onto Y".
    const m =
      /^(?:over |all |everything |(?:the |our |my )?[\w.-]+(?: [\w.-]+)? )?(?:from|off(?: of)?|away from) (.+?) (?:to|onto) (.+)$/i.exec(
        rest,
      )
    if (m) {
      const from = cleanPhrase(clauseTail(m[1] ?? ''))
      const tos = objectList(m[2] ?? '')
      if (!from || tos.length === 0) return undefined
      return tos.flatMap((to) => [
        triple(to, 'replaces', from, 1),
        triple(subject, 'uses', to, 1),
        triple(subject, 'uses', from, -1),
      ])
    }
    const onlyTo = /^(?:over )?to (.+)$/i.exec(rest)
    if (!onlyTo || /^mov/i.test(match[0])) return undefined
    return objectList(onlyTo[1] ?? '').map((to) => triple(subject, 'uses', to, polarity))
  }
  if (pattern.shape === 'replacedWith') {
    const m = /^(.+?) (?:with|by|for|in favou?r of) (.+)$/i.exec(rest)
    if (m) {
      const old = cleanPhrase(m[1] ?? '')
      const news = objectList(m[2] ?? '')
      if (!old || news.length === 0) return undefined
      if (isSpeaker) {
        return news.flatMap((n) => [
          triple(n, 'replaces', old, 1),
          triple(subject, 'uses', n, 1),
          triple(subject, 'uses', old, -1),
        ])
      }
      return undefined
    }
    if (isSpeaker || !/^replac/i.test(match[0])) return undefined
    return objectList(rest).map((old) => triple(subject, 'replaces', old, polarity))
  }
  if (pattern.shape === 'prep') {
    const prep = pattern.prep ?? 'to'
    const direct = pattern.middleSuffix ? null : new RegExp(`^(?:${prep})\\s+(.+)$`, 'i').exec(rest)
    if (direct) {
      // "Unit tests run on Vitest and e2e tests on Playwright": a gapped clause names its own subject.
      const [head = '', ...gapped] = (direct[1] ?? '').split(GAPPED)
      return [
        ...objectList(head)
          .filter((o) => acceptableObject(pattern, o))
          .map((o) => triple(subject, pattern.predicate, o, polarity)),
        ...gappedTriples(pattern, gapped, polarity),
      ]
    }
    if (!pattern.middle) return undefined
    const mid = new RegExp(`^(.+?)\\s+(?:${prep})\\s+(.+)$`, 'i').exec(rest)
    if (!mid) return undefined
    const middleRaw = (mid[1] ?? '').trim()
    if (pattern.middleSuffix && !pattern.middleSuffix.test(middleRaw)) return undefined
    const everything =
      /^(?:everything|anything|nothing|it all|all of it|all|stuff|things|it|(?:every|each|all(?: of)?(?: our| the)?) \w+)$/i.test(
        middleRaw,
      )
    // A tests phrase stays whole ("our test suite"): asTestedBy reads whose tests they are.
    const tests = pattern.middleSuffix ? middleRaw.replace(/^(?:the|our|my)\s+/i, '') : undefined
    const middle = everything || pattern.keepSubject ? subject : (tests ?? cleanPhrase(middleRaw))
    if (!middle || (middle.split(' ').length > 3 && !everything)) return undefined
    // "deploy the frontend to Vercel and the API to Fly.io": a gapped second clause names its own subject.
    const [head = '', ...gapped] = (mid[2] ?? '').split(GAPPED)
    return [
      ...objectList(head)
        .filter((o) => acceptableObject(pattern, o))
        .map((o) => triple(middle, pattern.predicate, o, polarity)),
      ...gappedTriples(pattern, gapped, polarity),
    ]
  }
  let predicate = pattern.predicate
  const negation = parsed.auxWords.join(' ')
  if (STANCE.has(predicate) && parsed.negated && !pattern.requireNegation && !/no longer/.test(negation))
    return []
  const body = STANCE.has(predicate) || predicate === 'prefers' ? rest.replace(LIGHT_VERB, '') : rest
  if (predicate === 'uses' && parsed.never)
    return objectList(rest).map((o) => triple(subject, 'avoids', o, 1))
  if (predicate === 'depends_on' && isSpeaker && /^(?:needs?|requires?)$/i.test(match[0])) return undefined
  if (predicate === 'uses' && /^used$/i.test(match[0]) && PAST.test(sentence)) {
    return objectList(rest).map((o) => triple(subject, 'uses', o, -1))
  }
  if (predicate === 'uses' && !isSpeaker && /work with/i.test(match[0]) && parsed.negated) {
    predicate = 'conflicts_with'
  }
  if (predicate === 'depends_on' && isSpeaker) predicate = 'uses'
  const finalPolarity: 1 | -1 = predicate === 'conflicts_with' ? 1 : polarity
  const comparison = comparisonAfter(body, predicate, match[0])
  const span = comparison?.chosen ?? body
  // "We don't use any ORM": a quantified kind is no entity, unless it is a known technology.
  const quantified = /^any\s/i.test(span)
  const triples = objectList(span)
    .filter((o) => acceptableObject(pattern, o, span) && (!quantified || isKnownTech(o)))
    // "We avoid deploying on Fridays": a stance towards an activity names no thing.
    .filter((o) => !STANCE.has(predicate) || looksNamed(o) || isKnownTech(o) || !/^\w+ing\b/i.test(o))
    .map((o) => triple(subject, predicate, o, finalPolarity))
  if (predicate === 'uses' && finalPolarity === 1) triples.push(...purposeTests(rest))
  const chosen = triples[0]
  if (comparison && chosen) triples.push(...rivalTriples(chosen, comparison))
  return triples
}

/** "... and e2e tests on Playwright", "... and the API to Fly.io": clauses that drop a repeated verb. */
const GAPPED = /\s*,?\s+and\s+(?=(?:the |our |my )?[\w.-]+(?: [\w.-]+)? (?:to|on|onto|in|with) )/i

function gappedTriples(
  pattern: RulePattern,
  clauses: readonly string[],
  polarity: 1 | -1,
): ExtractedTriple[] {
  const out: ExtractedTriple[] = []
  for (const clause of clauses) {
    const g = new RegExp(`^(.+?)\\s+(?:${pattern.prep ?? 'to'})\\s+(.+)$`, 'i').exec(clause)
    const subject = g && !pattern.keepSubject ? cleanPhrase(g[1] ?? '') : undefined
    if (!g || !subject) continue
    for (const o of objectList(g[2] ?? '')) {
      if (acceptableObject(pattern, o)) out.push(triple(subject, pattern.predicate, o, polarity))
    }
  }
  return out
}

/**
 * Extracts triples from one prose sentence (already normalised, never a question or hypothetical). With a
 * scope, "you", an inclusive "we" and named peers are people too (see {@link SubjectScope}).
 */
export function sentenceTriples(sentence: string, evidence: string, scope?: SubjectScope): ExtractedTriple[] {
  const fronted = frontedComparison(sentence)
  if (fronted) {
    const found = sentenceTriples(fronted.clause, evidence, scope)
    return withFrontedRivals(found, fronted.rivals).map((t) => ({ ...t, evidenceText: evidence }))
  }
  const fallback = leadingSubject(sentence, scope)
  const taken: Span[] = []
  const out: ExtractedTriple[] = []
  out.push(...copulaFacts(sentence))
  for (const fact of versionFacts(sentence, fallback, scope)) {
    taken.push(fact.span)
    out.push(fact.triple)
  }
  for (const pattern of RULE_PATTERNS) {
    pattern.verb.lastIndex = 0
    for (const match of sentence.matchAll(pattern.verb)) {
      const span = { start: match.index ?? 0, end: (match.index ?? 0) + match[0].length }
      if (overlaps(span, taken)) continue
      const triples = readMatch(pattern, sentence, match as RegExpExecArray, fallback, scope)
      if (!triples || triples.length === 0) continue
      taken.push(span)
      out.push(...triples)
    }
  }
  out.push(...toolRunsTests(sentence))
  const timeScope = TEMPORAL.exec(sentence)?.[0]
  return asTestedBy(out, sentence)
    .filter((t) => t.subject.toLowerCase() !== t.object.toLowerCase())
    .map((t) => ({ ...t, ...(timeScope ? { temporalScope: timeScope } : {}), evidenceText: evidence }))
}
