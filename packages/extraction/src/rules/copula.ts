import type { ExtractedTriple } from '../extractor/types'
import { comparisonAfter, rivalTriples } from './comparison'
import { cleanPhrase, looksNamed, objectList } from './noun-phrase'
import { isKnownTech } from './tech-lexicon'

const ROLE =
  /^(our|my|[A-Z][\w-]*'s)\s+(main\s+|primary\s+|default\s+|current\s+|favou?rite\s+|preferred\s+|go-to\s+)?((?:[\w-]+\s+){0,2}?(?:database|db|cache|queue|editor|ide|language|framework|stack|cloud|cloud provider|host|hosting provider|ci|os|shell|terminal|orm|test runner|package manager|bundler|broker|registry|runtime|linter|formatter|cms|search engine|message broker))\s+(?:is|are)\s+(.+?)[.!]?$/i

/** "My preference is Kotlin over Java", "our choice is Go": a stated preference, maybe with its rival. */
const PREFERENCE =
  /^(our|my|[A-Z][\w-]*'s)\s+(?:(?:strong|personal|clear)\s+)?(?:preference|choice|pick)\s+(?:is|was)\s+(.+?)[.!]?$/i

/** The owner of "our / my / Dana's <role>": the team, the speaker, or the named person. */
function owner(word: string): string {
  const lower = word.toLowerCase()
  return lower === 'our' ? 'team' : lower === 'my' ? 'user' : word.slice(0, -2)
}

/**
 * "Our main database is PostgreSQL 15" → (team, uses, PostgreSQL, value 15); "My favourite editor is Neovim"
 * → (user, prefers, Neovim); "Dana's favourite language is Elixir" → (Dana, prefers, Elixir).
 */
export function copulaFacts(sentence: string): ExtractedTriple[] {
  const preference = PREFERENCE.exec(sentence)
  if (preference)
    return preferenceFacts(owner(preference[1] ?? ''), preference[2] ?? '', /\s+was\s+/i.test(preference[0]))
  const m = ROLE.exec(sentence)
  if (!m) return []
  const subject = owner(m[1] ?? '')
  const predicate = /favou?rite|preferred|go-to/i.test(m[2] ?? '') ? 'prefers' : 'uses'
  const out: ExtractedTriple[] = []
  for (const raw of (m[4] ?? '').split(/\s*,\s*|\s+and\s+/)) {
    const version = /\s+v?(\d+(?:\.\d+)*)$/.exec(raw)
    const object = cleanPhrase(version ? raw.slice(0, version.index) : raw)
    if (!object || (!looksNamed(object) && !isKnownTech(object))) continue
    out.push({ subject, predicate, object, polarity: 1, ...(version?.[1] ? { valueText: version[1] } : {}) })
  }
  return out
}

function preferenceFacts(subject: string, rest: string, past: boolean): ExtractedTriple[] {
  const comparison = comparisonAfter(rest, 'prefers', 'prefer')
  const chosen = objectList(comparison?.chosen ?? rest).map(
    (object): ExtractedTriple => ({ subject, predicate: 'prefers', object, polarity: past ? -1 : 1 }),
  )
  const first = chosen[0]
  return first && comparison ? [...chosen, ...rivalTriples(first, comparison)] : chosen
}
