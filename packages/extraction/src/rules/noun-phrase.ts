import { CLAUSE_VERBS } from './verbs'

/** Stance and frequency adverbs: a remark about the statement ("I prefer emacs, honestly"), never its object. */
const STANCE_ADVERBS =
  'honestly frankly seriously personally basically obviously definitely probably certainly clearly generally ' +
  'typically actually literally truly absolutely totally apparently hopefully luckily unfortunately fortunately ' +
  'surprisingly ideally admittedly arguably especially initially eventually finally originally occasionally ' +
  'rarely normally naturally sometimes often mostly mainly usually'

const DETERMINERS = new Set(
  (
    'the a an our my their his her its your this that these those some any all both every each only just ' +
    `mostly mainly primarily exclusively also still now currently usually always really actually even ${STANCE_ADVERBS}`
  ).split(' '),
)

/** Words that can never be an entity on their own. */
const NON_ENTITIES = new Set(
  (
    'it them they this that these those something anything everything nothing stuff things thing one ones ' +
    'what which who there here me you him her us we i he she lot lots bit way time codespan same other ' +
    'others more less much many few none all both either neither whatever whichever yes no ok okay well ' +
    `too again instead now then so very not btw tbh imo imho fyi lol though anyway good ${STANCE_ADVERBS}`
  ).split(' '),
)

/** Words that end an entity phrase: prepositions, conjunctions, adverbs. */
const PHRASE_END = new Set(
  (
    'being having getting for in on at with from to as via by over across under inside into because since ' +
    'everywhere anymore now today currently again too also every daily heavily mostly exclusively here ' +
    'there which that who where when while but and or so if unless until after before than instead rather ' +
    'except anyway though although nowadays these lately recently yet please thanks any whenever either ' +
    'is are was were be been will would can could should do does did not about like against through ' +
    'throughout without within per everyday more less last next yesterday tomorrow tonight this each ' +
    `already ago soon later earlier first finally together right directly manually better worse wherever ${STANCE_ADVERBS}`
  ).split(' '),
)

/** Verbs that start a clause rather than a noun phrase. */
export const VERB_START = new Set(
  (
    'be do make get have go see try use run write help keep build deploy test configure connect switch ' +
    'move migrate set add remove install start stop call check fix need want like think know say said ' +
    'tell let uses runs deploys using running deployed tested configured give take put guess believe ' +
    'avoid prefer reject replace depend depends ship host store handle work'
  ).split(' '),
)

const PRONOUNS = new Set(['i', 'we', 'you', 'they', 'he', 'she', 'it', 'me', 'us', 'them'])

const TOKEN_TRIM = /^[\s"'([{<*_]+|[\s"')\]}>*_,.!?;:]+$/g

function isVersionToken(token: string): boolean {
  return /^v?\d+(?:\.\d+|\.x)*\+?$/i.test(token)
}

/**
 * Cleans one candidate entity phrase: drops leading determiners/adverbs, cuts at the first preposition or
 * conjunction, and refuses pronouns, clause starts and overly long phrases. Returns undefined when nothing
 * entity-like is left.
 */
export function cleanPhrase(raw: string, maxWords = 4): string | undefined {
  const tokens = raw.replace(TOKEN_TRIM, '').split(/\s+/).filter(Boolean)
  while (tokens.length > 0 && DETERMINERS.has((tokens[0] ?? '').toLowerCase())) tokens.shift()
  const kept: string[] = []
  for (const token of tokens) {
    const lower = token.toLowerCase().replace(TOKEN_TRIM, '')
    if (kept.length > 0 && PHRASE_END.has(lower)) break
    // A finite verb after the head means this is a clause ("Ledgerly depends on X"), not a noun phrase.
    if (kept.length > 0 && /^[a-z]/.test(token) && CLAUSE_VERBS.has(lower)) return undefined
    if (/[,;:!?()]$/.test(token)) {
      kept.push(token)
      break
    }
    kept.push(token)
  }
  const phrase = kept.join(' ').replace(TOKEN_TRIM, '').replace(/'s$/, '')
  if (!phrase) return undefined
  const words = phrase.split(' ')
  const first = (words[0] ?? '').toLowerCase()
  if (words.length > maxWords) return undefined
  const capitalised = /^[A-Z]/.test(words[0] ?? '')
  if ((VERB_START.has(first) && !capitalised) || PHRASE_END.has(first) || PRONOUNS.has(first))
    return undefined
  if (words.every((w) => NON_ENTITIES.has(w.toLowerCase()) || DETERMINERS.has(w.toLowerCase())))
    return undefined
  if (words.length === 1 && isVersionToken(first)) return undefined
  if (!/[\p{L}]/u.test(phrase)) return undefined
  return phrase
}

const CLAUSE_END =
  /[;:!?()[\]]|\.(?=\s|$)|\s[-–—]\s|\b(?:but|because|since|although|though|while|whereas|which|who|so that|so|when|where|if|unless|until|after|before|instead of|rather than|except|whenever|once|and (?=(?:we|i|they|you|he|she|it)\b)|(?:(?:a|an|one|two|three|four|five|six|several|a few|\d+) )?(?:years?|months?|weeks?|days?) ago)\b/i

/** Cuts an object span at the end of its clause. */
export function clauseTail(rest: string): string {
  const m = CLAUSE_END.exec(rest)
  return (m ? rest.slice(0, m.index) : rest).trim()
}

/** Splits a coordinated object span ("React, Vite and Vitest") into cleaned entity phrases. */
export function objectList(span: string): string[] {
  const items = clauseTail(span)
    .split(/\s*,\s*(?:and\s+|or\s+|nor\s+)?|\s+(?:and|or|nor|&|as well as|plus)\s+/i)
    .map((item) => cleanPhrase(item))
  const out: string[] = []
  for (const item of items) {
    if (item === undefined) break
    if (!out.includes(item)) out.push(item)
  }
  return out
}

/** True for phrases that look like a named thing: capitalised, camel-cased, dotted, or with digits. */
export function looksNamed(phrase: string): boolean {
  return /(^|\s)[A-Z0-9]|[a-z][A-Z]|\w\.\w|\w[-_]\w|\d/.test(phrase)
}
