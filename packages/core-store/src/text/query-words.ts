import { inflectedWord, type QueryWord } from './inflection'
import {
  _inRanges,
  _isAscii,
  _jsCharClass,
  DROPPED_MARKS,
  HAN_KANA,
  SOUTHEAST_ASIAN,
  WIDE_PUNCTUATION,
} from './scripts'
import { _isFtsTokenChar } from './token-chars'
import { tokenizeForFts } from './tokenize'

export type { QueryWord } from './inflection'

const UNSPACED_RUN = new RegExp(`${_jsCharClass([...HAN_KANA, ...SOUTHEAST_ASIAN])}+`, 'gu')
const DROPPED = new RegExp(_jsCharClass(DROPPED_MARKS), 'gu')
const PUNCTUATION = new RegExp(_jsCharClass(WIDE_PUNCTUATION), 'gu')

let segmenter: Intl.Segmenter | undefined

/**
 * The words of a query, in order, as the index (`fullTextIndexText`) holds them. Spaced scripts split like
 * FTS5's `unicode61`; Han and Kana runs become overlapping character pairs (`后端服务` → `后 端`, `端 服`,
 * `服 务`, each a phrase of two indexed characters: ICU's dictionary splits `后端` and `缓存` into single
 * characters, pairs do not depend on it); Thai, Lao, Myanmar and Khmer runs become their dictionary words
 * (`Intl.Segmenter`), each a phrase of its letters; Korean, Cyrillic, Greek, Arabic and Devanagari words are
 * stemmed into prefixes (`inflectedWord`). Lazy, so callers can stop early on very long input.
 */
export function* queryWords(text: string): Generator<QueryWord, void, undefined> {
  if (_isAscii(text)) {
    for (const word of tokenizeForFts(text)) yield { text: word, prefix: false, source: word }
    return
  }
  // Marks go first, as in the index: a dropped Khmer or Thai mark between two letters of another script
  // joins them into one word there.
  const kept = text.replace(DROPPED, '')
  let from = 0
  for (const run of kept.matchAll(UNSPACED_RUN)) {
    yield* spacedWords(kept.slice(from, run.index))
    yield* unspacedWords(run[0])
    from = run.index + run[0].length
  }
  yield* spacedWords(kept.slice(from))
}

function* spacedWords(part: string): Generator<QueryWord, void, undefined> {
  for (const word of tokenizeForFts(part.replace(PUNCTUATION, ' '))) yield inflectedWord(word)
}

function* unspacedWords(run: string): Generator<QueryWord, void, undefined> {
  let chars: string[] = []
  let southeastAsian = false
  const flush = function* (): Generator<QueryWord, void, undefined> {
    if (chars.length === 0) return
    if (southeastAsian) yield* dictionaryWords(chars.join(''))
    else if (chars.length === 1) yield { text: chars[0]!, prefix: false, source: chars[0]! }
    else
      for (let at = 0; at + 1 < chars.length; at++) {
        const pair = [chars[at]!, chars[at + 1]!]
        yield { text: pair.join(' '), prefix: false, source: pair.join('') }
      }
    chars = []
  }
  for (const char of run) {
    const codePoint = char.codePointAt(0)!
    const isSoutheastAsian = _inRanges(SOUTHEAST_ASIAN, codePoint)
    // A Han or Kana sign FTS5 does not index (a radical, a sound mark) ends a run.
    if (!isSoutheastAsian && !_isFtsTokenChar(codePoint)) {
      yield* flush()
      continue
    }
    if (isSoutheastAsian !== southeastAsian) {
      yield* flush()
      southeastAsian = isSoutheastAsian
    }
    chars.push(char)
  }
  yield* flush()
}

function* dictionaryWords(run: string): Generator<QueryWord, void, undefined> {
  segmenter ??= new Intl.Segmenter('und', { granularity: 'word' })
  // Every segment the index holds a character of, word-like or not: a Khmer or Thai number sign is indexed
  // though ICU does not call it a word.
  for (const { segment } of segmenter.segment(run)) {
    const letters = [...segment.replace(DROPPED, '')].filter((c) => _isFtsTokenChar(c.codePointAt(0)!))
    if (letters.length > 0) yield { text: letters.join(' '), prefix: false, source: segment }
  }
}
