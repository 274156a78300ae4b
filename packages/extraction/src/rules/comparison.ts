import type { ExtractedTriple } from '../extractor/types'
import type { Predicate } from '../vocabulary'
import { clauseTail, looksNamed, objectList } from './noun-phrase'
import { isKnownTech } from './tech-lexicon'

/**
 * A comparison frame after a verb's object: "prefer X over Y", "like X a lot more than Y", "use X instead
 * of Y", "X, not Y". `chosen` is the object span before the marker, `rivals` what it is compared with.
 */
export interface Comparison {
  chosen: string
  rivals: string[]
  marker: string
}

/** Degree words between an object and "more/better than" ("Vim a lot more than Emacs"). */
const DEGREE = /\s+(?:a lot|a little|a bit|lots|much|far|way|even|so much|slightly|somewhat)$/i

const MARKER =
  /,?\s+(over|rather than|instead of|(?:more|better) than|than|to|in favou?r of)\s+|,\s*(?:but\s+)?(not)\s+/gi

/** Markers each predicate reads, and what the rival becomes. */
const FRAMES: Partial<Record<Predicate, RegExp>> = {
  prefers: /^(?:over|rather than|instead of|more than|better than|than|to|not|in favou?r of)$/i,
  uses: /^(?:rather than|instead of|not|more than|in favou?r of)$/i,
}

/** A rival that is only a stand-in ("light ones", "that one") names nothing. */
const ANAPHORIC = /\b(?:one|ones|that|those|it|them)$/i

function namedThing(phrase: string): boolean {
  return looksNamed(phrase) || isKnownTech(phrase)
}

/**
 * Reads a comparison frame in the text after a verb. "than" alone needs a verb of "rather" ("would rather use
 * X than Y"); "to" and the rivals of `uses` must name a thing ("prefer Vim to edit files" compares nothing).
 */
export function comparisonAfter(rest: string, predicate: Predicate, verb: string): Comparison | undefined {
  const frame = FRAMES[predicate]
  if (!frame) return undefined
  const markerOf = (found: RegExpExecArray) => (found[1] ?? found[2] ?? '').toLowerCase().replace(/\s+/g, ' ')
  // The first marker this predicate reads: "use Vitest to test the API instead of Jest" skips "to".
  const m = [...rest.matchAll(MARKER)].find((found) => {
    const marker = markerOf(found)
    return frame.test(marker) && (marker !== 'than' || /\brather\b/i.test(verb))
  })
  if (!m) return undefined
  const marker = markerOf(m)
  const chosen = rest.slice(0, m.index).replace(DEGREE, '').trim()
  // The marker must belong to the verb's own clause: nothing may end the clause before it.
  if (chosen === '' || clauseTail(chosen) !== chosen) return undefined
  const rivals = objectList(rest.slice(m.index + m[0].length)).filter(
    (r) =>
      !ANAPHORIC.test(r) &&
      (predicate === 'prefers' && marker !== 'to' ? true : namedThing(r)) &&
      !/^\w+ing\b/i.test(r),
  )
  return { chosen, rivals, marker }
}

/**
 * The facts a rival adds to the chosen fact: a preferred thing's rival is avoided; a used thing's rival is
 * not used ("instead of", "rather than", "not"), or used too ("more than" compares how much).
 */
export function rivalTriples(chosen: ExtractedTriple, comparison: Pick<Comparison, 'rivals' | 'marker'>) {
  if (chosen.polarity !== 1) return []
  return comparison.rivals.map((rival): ExtractedTriple => {
    if (chosen.predicate === 'prefers')
      return { subject: chosen.subject, predicate: 'avoids', object: rival, polarity: 1 }
    const alsoUsed = comparison.marker === 'more than'
    return {
      subject: chosen.subject,
      predicate: chosen.predicate,
      object: rival,
      polarity: alsoUsed ? 1 : -1,
    }
  })
}

const FRONTED = /^(?:instead of|rather than)\s+([^,]+),\s*(.+)$/i
const BETWEEN = /^between\s+([^,]+?)\s+and\s+([^,]+),\s*(.+)$/i

/**
 * A comparison fronted before its clause: "Instead of Jenkins, we use Drone", "Rather than Redux, we prefer
 * Zustand", "Between Jest and Vitest, I prefer Vitest". Returns the clause and the candidates it was chosen
 * among (the chosen one is dropped by the caller).
 */
export function frontedComparison(sentence: string): { clause: string; rivals: string[] } | undefined {
  const between = BETWEEN.exec(sentence)
  if (between) {
    const rivals = [...objectList(between[1] ?? ''), ...objectList(between[2] ?? '')]
    return rivals.length > 0 ? { clause: between[3] ?? '', rivals } : undefined
  }
  const m = FRONTED.exec(sentence)
  if (!m) return undefined
  const rivals = objectList(m[1] ?? '').filter(namedThing)
  return rivals.length > 0 ? { clause: m[2] ?? '', rivals } : undefined
}

/** Adds the fronted rivals to the speaker's preferences and uses of the clause. */
export function withFrontedRivals(triples: readonly ExtractedTriple[], rivals: readonly string[]) {
  const out = [...triples]
  for (const t of triples) {
    if (t.predicate !== 'prefers' && t.predicate !== 'uses') continue
    const others = rivals.filter((r) => r.toLowerCase() !== t.object.toLowerCase())
    out.push(...rivalTriples(t, { rivals: others, marker: 'instead of' }))
  }
  return out
}
