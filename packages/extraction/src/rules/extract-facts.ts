import type { ExtractedEntityType, ExtractedMarker, ExtractedTriple } from '../extractor/types'
import { _dedupeTriples } from '../parse/facts'
import { splitClauses } from './clauses'
import { sentenceTriples } from './facts'
import { isHypothetical, isQuestion, isReported } from './filters'
import { rejectedByImperative } from './imperative'
import { rejectedSuggestion, sentenceMarkers, styleMarker } from './markers'
import { cleanPhrase, looksNamed } from './noun-phrase'
import { reportedClause } from './reported'
import type { SubjectScope } from './scope'
import { techType } from './tech-lexicon'
import { normalizeSentence, splitSentences, stripNonProse } from './text'

/** What the rules found in a text. */
export interface RuleFacts {
  triples: ExtractedTriple[]
  markers: ExtractedMarker[]
  entityTypes: ExtractedEntityType[]
}

function entityTypesOf(triples: readonly ExtractedTriple[]): ExtractedEntityType[] {
  const types = new Map<string, string>()
  const note = (entity: string, type: string | undefined) => {
    if (!type || entity === 'user' || entity === 'team') return
    const key = entity.toLowerCase()
    if (!types.has(key)) types.set(key, `${entity}\u0000${type}`)
  }
  for (const t of triples) {
    note(t.subject, techType(t.subject))
    note(t.object, techType(t.object))
    if (t.predicate === 'part_of' && t.polarity === 1) {
      if (/^[A-Z][a-z]+$/.test(t.subject) && !techType(t.subject)) note(t.subject, 'person')
      if (/\b(?:team|squad|group)$/i.test(t.object)) note(t.object, 'team')
      else if (looksNamed(t.object) && !techType(t.object)) note(t.object, 'project')
    }
  }
  return [...types.values()].map((v) => {
    const [entity = '', type = ''] = v.split('\u0000')
    return { entity, type }
  })
}

/** Facts of a sentence reporting what a known person (or the speaker) said; empty when it states none. */
function reportedFacts(
  sentence: string,
  raw: string,
  scope: SubjectScope,
): { triples: ExtractedTriple[]; markers: ExtractedMarker[] } | undefined {
  const report = reportedClause(sentence, scope)
  if (!report) return undefined
  const { clause, reporter } = report
  if (isQuestion(sentence) || isQuestion(clause) || isHypothetical(clause) || isReported(clause))
    return { triples: [], markers: [] }
  const found = splitClauses(clause).flatMap((c) => sentenceTriples(c, raw, scope))
  if (reporter === 'I') return { triples: found, markers: sentenceMarkers(clause, found, true) }
  const triples = found.map(
    (t): ExtractedTriple => (t.subject === reporter ? { ...t, attribution: 'reported' } : t),
  )
  return { triples, markers: [] }
}

/**
 * Rule-based extraction of triples, markers and entity types from English chat text. Questions,
 * hypotheticals, reported speech, code and assistant turns produce no triples. With a scope (one human
 * turn of a speaker-labelled chunk), "you", an inclusive "we" and named peers are people, and what a known
 * person is reported to have said is read as their statement.
 */
export function extractFactsByRules(text: string, scope?: SubjectScope): RuleFacts {
  const triples: ExtractedTriple[] = []
  const markers: ExtractedMarker[] = []
  for (const raw of splitSentences(stripNonProse(text))) {
    const sentence = normalizeSentence(raw)
    if (sentence.length < 4) continue
    const reported = scope ? reportedFacts(sentence, raw, scope) : undefined
    if (reported) {
      triples.push(...reported.triples)
      markers.push(...reported.markers)
      continue
    }
    const style = styleMarker(sentence)
    if (style) markers.push(style)
    const question = isQuestion(sentence)
    const isFact = !question && !isHypothetical(sentence) && !isReported(sentence)
    const found = isFact
      ? splitClauses(sentence).flatMap((clause) => sentenceTriples(clause, raw, scope))
      : []
    if (!question) {
      const rejected = rejectedSuggestion(sentence)
      const object = rejected ? cleanPhrase(rejected) : undefined
      if (object)
        found.push({ subject: 'user', predicate: 'rejects', object, polarity: 1, evidenceText: raw })
      for (const tool of isFact ? rejectedByImperative(sentence) : [])
        found.push({ subject: 'user', predicate: 'rejects', object: tool, polarity: 1, evidenceText: raw })
      markers.push(...sentenceMarkers(sentence, found, isFact))
    }
    triples.push(...found)
  }
  const seen = new Set<string>()
  const uniqueMarkers = markers.filter((m) => {
    const key = `${m.kind}\u0000${m.statement.toLowerCase()}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  const unique = _dedupeTriples(triples)
  return { triples: unique, markers: uniqueMarkers, entityTypes: entityTypesOf(unique) }
}
