import { _inRanges, INDIC_MARKS } from './scripts'
import { _isFtsTokenChar, _isFtsVanishingChar } from './token-chars'

/** The Indic combining marks HyMem's FTS5 tables declare `tokenchars` (see `FTS5_TOKENIZE`). */
function isTokenChar(codePoint: number): boolean {
  if (codePoint >= 0x0900 && codePoint <= 0x0dff && _inRanges(INDIC_MARKS, codePoint)) return true
  return _isFtsTokenChar(codePoint)
}

/**
 * Splits `text` into the terms HyMem's FTS5 tokenizer (`unicode61` keeping Indic marks in words) would see, in order, without case or diacritic
 * folding (FTS5 folds them itself when it parses the quoted term). Terms that FTS5 would reduce to nothing
 * (only combining marks that `remove_diacritics 2` deletes) are skipped. Lazy, so callers can stop early
 * on very long input.
 */
export function* tokenizeForFts(text: string): Generator<string, void, undefined> {
  let start = -1
  let survives = false
  let i = 0
  while (i < text.length) {
    const codePoint = text.codePointAt(i)!
    const width = codePoint > 0xffff ? 2 : 1
    if (isTokenChar(codePoint)) {
      if (start < 0) {
        start = i
        survives = false
      }
      if (!survives && !_isFtsVanishingChar(codePoint)) survives = true
    } else if (start >= 0) {
      if (survives) yield text.slice(start, i)
      start = -1
    }
    i += width
  }
  if (start >= 0 && survives) yield text.slice(start)
}
