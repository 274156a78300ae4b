import type { ExtractedTriple, KnownPeer, SpeakerTurn } from '../src/index'

/** One labelled fixture: expected triples as [subject, predicate, object, polarity] and marker kinds. */
export interface LabelledCase {
  text: string
  triples: [string, string, string, number][]
  markers?: string[]
}

/** Canonical comparison key: lower case, articles/possessives dropped, punctuation trimmed. */
export function tripleKey(s: string, p: string, o: string, polarity: number): string {
  const norm = (x: string) =>
    x
      .toLowerCase()
      .replace(/^(?:the|a|an|our|my)\s+/, '')
      .replace(/[\s"'`.,]+$/, '')
      .replace(/\s+/g, ' ')
      .trim()
  return `${norm(s)}|${p}|${norm(o)}|${polarity}`
}

export interface Counts {
  tp: number
  fp: number
  fn: number
}

export function ratio(c: Counts): { precision: number; recall: number } {
  return {
    precision: c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp),
    recall: c.tp + c.fn === 0 ? 1 : c.tp / (c.tp + c.fn),
  }
}

/** Scores predicted triples and markers against the labels, overall and per predicate / marker kind. */
export function scoreCases(
  cases: readonly LabelledCase[],
  predict: (text: string) => { triples: readonly ExtractedTriple[]; markers: readonly { kind: string }[] },
): { triples: Counts; markers: Counts; byPredicate: Map<string, Counts>; errors: string[] } {
  const triples: Counts = { tp: 0, fp: 0, fn: 0 }
  const markers: Counts = { tp: 0, fp: 0, fn: 0 }
  const byPredicate = new Map<string, Counts>()
  const errors: string[] = []
  const bucket = (p: string) => {
    const existing = byPredicate.get(p)
    if (existing) return existing
    const created = { tp: 0, fp: 0, fn: 0 }
    byPredicate.set(p, created)
    return created
  }
  for (const c of cases) {
    const got = predict(c.text)
    const expected = new Map(c.triples.map(([s, p, o, pol]) => [tripleKey(s, p, o, pol), p]))
    const predicted = new Map(
      got.triples.map((t) => [tripleKey(t.subject, t.predicate, t.object, t.polarity), t.predicate]),
    )
    for (const [key, p] of predicted) {
      if (expected.has(key)) {
        triples.tp++
        bucket(p).tp++
      } else {
        triples.fp++
        bucket(p).fp++
        errors.push(`FP ${key}  <- ${c.text}`)
      }
    }
    for (const [key, p] of expected) {
      if (!predicted.has(key)) {
        triples.fn++
        bucket(p).fn++
        errors.push(`FN ${key}  <- ${c.text}`)
      }
    }
    const wantKinds = new Set<string>(c.markers ?? [])
    const gotKinds = new Set<string>(got.markers.map((m) => m.kind))
    for (const k of gotKinds) {
      if (wantKinds.has(k)) markers.tp++
      else {
        markers.fp++
        errors.push(`FP marker ${k}  <- ${c.text}`)
      }
    }
    for (const k of wantKinds) {
      if (!gotKinds.has(k)) {
        markers.fn++
        errors.push(`FN marker ${k}  <- ${c.text}`)
      }
    }
  }
  return { triples, markers, byPredicate, errors }
}

/** One speaker-labelled chunk: turns with expected triples (subjects are peer ids) and `kind:peerId` markers. */
export interface SpeakerCase {
  note: string
  turns: SpeakerTurn[]
  triples: [string, string, string, number][]
  markers?: string[]
}

/** A held-out round of speaker-labelled chunks sharing one peer registry. */
export interface SpeakerRound {
  description: string
  peers: KnownPeer[]
  cases: SpeakerCase[]
}

/** A speaker case as a {@link LabelledCase} keyed on its note; markers are scored as `kind:peerId`. */
export function asLabelled(c: SpeakerCase): LabelledCase {
  return { text: c.note, triples: c.triples, markers: c.markers ?? [] }
}

/** A predicted marker as `kind:peerId` (`kind:user` when it names no peer). */
export function markerLabel(m: { kind: string; peerId?: string }): { kind: string } {
  return { kind: `${m.kind}:${m.peerId ?? 'user'}` }
}
