import type { ExtractedTriple } from '../extractor/types'
import type { Predicate } from '../vocabulary'
import { copulaFacts } from './copula'
import { clauseTail, cleanPhrase, looksNamed, objectList } from './noun-phrase'
import { RULE_PATTERNS, type RulePattern } from './patterns'
import { impliedSubject, leadingSubject, parseSubject, type SubjectParse } from './subject'
import { isCalendarWord, isKnownTech } from './tech-lexicon'
import { versionFacts } from './versions'

const SPEAKERS = new Set(['user', 'team'])
const CONTRAST =
  /(?:,\s*(?:but\s+)?not|\binstead of|\brather than)\s+([A-Za-z][\w.+#-]*(?:\s+[A-Z][\w.+#-]*)?)/i
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
): ExtractedTriple[] | undefined {
  const prefix = sentence.slice(0, match.index)
  const parsed =
    parseSubject(prefix, fallbackSubject) ?? speakerOfBareClause(pattern, sentence, match, prefix)
  const triples = readParsedMatch(pattern, sentence, match, parsed)
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
): ExtractedTriple[] | undefined {
  const rest = sentence.slice(match.index + match[0].length).trim()
  let parsed = subjectParse
  if (pattern.shape === 'passiveBy') {
    const by = /^by\s+(.+)$/i.exec(rest)
    const patient = parsed?.subject
    if (!by || !patient || SPEAKERS.has(patient)) return undefined
    return objectList(by[1] ?? '').map((agent) =>
      triple(agent, pattern.predicate, patient, parsed?.negated ? -1 : 1),
    )
  }
  if (!parsed) return undefined
  const isSpeaker = SPEAKERS.has(parsed.subject)
  if (pattern.speakerOnly && !isSpeaker) return undefined
  if (pattern.thingOnly && isSpeaker) return undefined
  if (pattern.requireNegation) {
    if (!parsed.negated) return undefined
    parsed = { ...parsed, negated: false }
  }
  const polarity: 1 | -1 = pattern.polarity ?? (parsed.negated ? -1 : 1)
  const subject = parsed.subject

  if (pattern.shape === 'fromTo') {
    const m = /^(?:over |all |everything )?from (.+?) to (.+)$/i.exec(rest)
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
    const direct = new RegExp(`^(?:${prep})\\s+(.+)$`, 'i').exec(rest)
    if (direct) {
      return objectList(direct[1] ?? '')
        .filter((o) => acceptableObject(pattern, o))
        .map((o) => triple(subject, pattern.predicate, o, polarity))
    }
    if (!pattern.middle) return undefined
    const mid = new RegExp(`^(.+?)\\s+(?:${prep})\\s+(.+)$`, 'i').exec(rest)
    if (!mid) return undefined
    const middleRaw = (mid[1] ?? '').trim()
    const everything =
      /^(?:everything|it all|all of it|all|stuff|things|it|(?:every|each|all(?: of)?(?: our| the)?) \w+)$/i.test(
        middleRaw,
      )
    const middle = everything || pattern.keepSubject ? subject : cleanPhrase(middleRaw)
    if (!middle || (middle.split(' ').length > 3 && !everything)) return undefined
    // "deploy the frontend to Vercel and the API to Fly.io": a gapped second clause names its own subject.
    const [head = '', ...gapped] = (mid[2] ?? '').split(
      /\s*,?\s+and\s+(?=(?:the |our |my )?[\w.-]+(?: [\w.-]+)? (?:to|on|onto|in|with) )/i,
    )
    const out = objectList(head)
      .filter((o) => acceptableObject(pattern, o))
      .map((o) => triple(middle, pattern.predicate, o, polarity))
    for (const clause of gapped) {
      const g = new RegExp(`^(.+?)\\s+(?:${prep})\\s+(.+)$`, 'i').exec(clause)
      const gSubject = g && !pattern.keepSubject ? cleanPhrase(g[1] ?? '') : undefined
      if (!g || !gSubject) continue
      for (const o of objectList(g[2] ?? '')) {
        if (acceptableObject(pattern, o)) out.push(triple(gSubject, pattern.predicate, o, polarity))
      }
    }
    return out
  }
  let predicate = pattern.predicate
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
  const triples = objectList(rest)
    .filter((o) => acceptableObject(pattern, o, rest))
    .map((o) => triple(subject, predicate, o, finalPolarity))
  if (predicate === 'uses' && finalPolarity === 1) triples.push(...purposeTests(rest))
  const contrast = predicate === 'uses' ? CONTRAST.exec(rest) : null
  const other = contrast ? cleanPhrase(contrast[1] ?? '') : undefined
  if (triples.length > 0 && other)
    triples.push(triple(subject, predicate, other, finalPolarity === 1 ? -1 : 1))
  return triples
}

/** Extracts triples from one prose sentence (already normalised, never a question or hypothetical). */
export function sentenceTriples(sentence: string, evidence: string): ExtractedTriple[] {
  const fallback = leadingSubject(sentence)
  const taken: Span[] = []
  const out: ExtractedTriple[] = []
  out.push(...copulaFacts(sentence))
  for (const fact of versionFacts(sentence, fallback)) {
    taken.push(fact.span)
    out.push(fact.triple)
  }
  for (const pattern of RULE_PATTERNS) {
    pattern.verb.lastIndex = 0
    for (const match of sentence.matchAll(pattern.verb)) {
      const span = { start: match.index ?? 0, end: (match.index ?? 0) + match[0].length }
      if (overlaps(span, taken)) continue
      const triples = readMatch(pattern, sentence, match as RegExpExecArray, fallback)
      if (!triples || triples.length === 0) continue
      taken.push(span)
      out.push(...triples)
    }
  }
  const scope = TEMPORAL.exec(sentence)?.[0]
  return out
    .filter((t) => t.subject.toLowerCase() !== t.object.toLowerCase())
    .map((t) => ({ ...t, ...(scope ? { temporalScope: scope } : {}), evidenceText: evidence }))
}
