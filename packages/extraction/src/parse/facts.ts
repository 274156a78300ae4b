import * as v from 'valibot'
import type { ExtractedEntityType, ExtractedMarker, ExtractedTriple } from '../extractor/types'
import { isMarkerKind, isPredicate } from '../vocabulary'
import { _label, _optionalNumber, _optionalText, _text } from './fields'
import { _arrayField, extractJson } from './json-text'

/** Clamps whatever the model wrote as polarity to 1 or -1 (negative numbers, "negative", false → -1). */
function clampPolarity(x: unknown): 1 | -1 {
  if (typeof x === 'number') return x < 0 ? -1 : 1
  if (typeof x === 'boolean') return x ? 1 : -1
  if (typeof x === 'string') {
    const s = x.trim().toLowerCase()
    if (s.startsWith('-') || s === 'negative' || s === 'false' || s === 'negated') return -1
  }
  return 1
}

const TripleSchema = v.object({
  subject: _text(200),
  predicate: v.pipe(v.string(), v.transform(_label), v.check(isPredicate, 'unknown predicate')),
  object: _text(200),
  polarity: v.pipe(v.optional(v.unknown()), v.transform(clampPolarity)),
  value_text: _optionalText(200),
  value_numeric: _optionalNumber,
  value_unit: _optionalText(40),
  temporal_scope: _optionalText(120),
  evidence: _optionalText(1000),
})

const MarkerSchema = v.object({
  kind: v.pipe(v.string(), v.transform(_label), v.check(isMarkerKind, 'unknown marker kind')),
  statement: _text(500),
  peer: _optionalText(200),
})

const EntityTypeSchema = v.object({
  entity: _text(200),
  type: v.pipe(_text(60), v.transform(_label)),
})

/** The parsed facts answer, with counts of what had to be dropped. */
export interface ParsedFacts {
  triples: ExtractedTriple[]
  markers: ExtractedMarker[]
  entityTypes: ExtractedEntityType[]
  dropped: { triples: number; markers: number; entityTypes: number }
  /** False when no JSON object could be found at all. */
  ok: boolean
}

/**
 * Parses a triples + markers + entity types answer. Invalid items (unknown predicate or marker kind, missing
 * or over-long fields) are dropped and counted; the rest of the batch survives.
 */
export function parseFactsAnswer(text: string): ParsedFacts {
  const json = extractJson(text)
  const result: ParsedFacts = {
    triples: [],
    markers: [],
    entityTypes: [],
    dropped: { triples: 0, markers: 0, entityTypes: 0 },
    ok: json !== undefined && typeof json === 'object' && json !== null,
  }
  if (!result.ok) return result
  const triples = _arrayField(json, 'triples') ?? []
  const markers = Array.isArray(json) ? [] : (_arrayField(json, 'markers') ?? [])
  const types = Array.isArray(json)
    ? []
    : (_arrayField(json, 'entity_types') ?? _arrayField(json, 'entityTypes') ?? [])
  for (const item of triples) {
    const r = v.safeParse(TripleSchema, item)
    if (!r.success) {
      result.dropped.triples++
      continue
    }
    const t = r.output
    const triple: ExtractedTriple = {
      subject: t.subject,
      predicate: t.predicate as ExtractedTriple['predicate'],
      object: t.object,
      polarity: t.polarity ?? 1,
    }
    if (t.value_text !== undefined) triple.valueText = t.value_text
    if (t.value_numeric !== undefined) triple.valueNumeric = t.value_numeric
    if (t.value_unit !== undefined) triple.valueUnit = t.value_unit
    if (t.temporal_scope !== undefined) triple.temporalScope = t.temporal_scope
    if (t.evidence !== undefined) triple.evidenceText = t.evidence
    result.triples.push(triple)
  }
  for (const item of markers) {
    const r = v.safeParse(MarkerSchema, item)
    if (!r.success) {
      result.dropped.markers++
      continue
    }
    const marker: ExtractedMarker = {
      kind: r.output.kind as ExtractedMarker['kind'],
      statement: r.output.statement,
    }
    // The peer as the model wrote it; the LLM extractor resolves it against the speakers.
    if (r.output.peer !== undefined) marker.peerId = r.output.peer
    result.markers.push(marker)
  }
  for (const item of types) {
    const r = v.safeParse(EntityTypeSchema, item)
    if (r.success) result.entityTypes.push(r.output)
    else result.dropped.entityTypes++
  }
  return result
}

/** Removes repeated triples (same subject, predicate, object and polarity, case-insensitive). */
export function _dedupeTriples(triples: readonly ExtractedTriple[]): ExtractedTriple[] {
  const seen = new Set<string>()
  return triples.filter((t) => {
    const key = `${t.subject.toLowerCase()}\u0000${t.predicate}\u0000${t.object.toLowerCase()}\u0000${t.polarity}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
