import { _isAscii, _jsCharClass, DROPPED_MARKS, HAN_KANA, SOUTHEAST_ASIAN, WIDE_PUNCTUATION } from './scripts'

const DROPPED = new RegExp(_jsCharClass(DROPPED_MARKS), 'gu')
const PUNCTUATION = new RegExp(_jsCharClass(WIDE_PUNCTUATION), 'gu')
const UNSPACED = new RegExp(_jsCharClass([...HAN_KANA, ...SOUTHEAST_ASIAN]), 'gu')

/**
 * The text a full-text index holds for `text`: every character of a script written without spaces (Han,
 * Kana, Thai, Lao, Myanmar, Khmer) becomes a word of its own, so a query can find any word inside an unspaced
 * run as a phrase of its characters; marks FTS5 cannot keep inside a word are dropped, non-ASCII punctuation
 * becomes a space. ASCII text is returned unchanged (English is indexed as before). PostgreSQL's
 * `hymem_fts_text` (migration 8) is the same function in SQL.
 *
 * @example
 * fullTextIndexText('我们用PostgreSQL，Redis') // ' 我  们  用 PostgreSQL Redis'
 */
export function fullTextIndexText(text: string): string {
  if (_isAscii(text)) return text
  return text.replace(DROPPED, '').replace(PUNCTUATION, ' ').replace(UNSPACED, ' $& ')
}
