import { stemmer } from 'stemmer'
import { queryWords } from './query-words'
import { COMMON_WORDS } from './stop-words'

/** Terms read from one text at most: a long answer's topics come up early, and rows stay bounded. */
const MAX_TERMS = 400

const LATIN_WORD = /^[a-z][a-z0-9]*$/

/**
 * The topic terms of `text`, first occurrence first, as the topic index keys them: function words of every
 * language left out, English words lower case and Porter-stemmed (`deployments` and `deploying` are one term),
 * Han and Kana as character pairs, Thai, Lao, Khmer and Myanmar as dictionary words, and the words of other
 * scripts by their stem (see `queryWords`). Numbers and single letters are not topics.
 */
export function topicTerms(text: string, maxTerms = MAX_TERMS): string[] {
  const out = new Set<string>()
  for (const word of queryWords(text)) {
    const source = word.source.toLowerCase()
    if (COMMON_WORDS.has(source) || [...source].length < 2 || /^\d+$/.test(source)) continue
    out.add(LATIN_WORD.test(source) ? stemmer(source) : word.prefix ? word.text.toLowerCase() : source)
    if (out.size >= maxTerms) break
  }
  return [...out]
}
