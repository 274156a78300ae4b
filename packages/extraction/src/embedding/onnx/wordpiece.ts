/**
 * The uncased BERT tokenizer (Hugging Face `BertNormalizer` + `BertPreTokenizer` + `WordPiece`, with
 * `[CLS] … [SEP]` around every text), read from a `tokenizer.json`.
 */
export interface WordPieceTokenizer {
  /** Token ids of `text`, `[CLS]` first and `[SEP]` last, at most `maxTokens` in all. */
  encode(text: string, maxTokens: number): number[]
}

interface TokenizerJson {
  model: {
    vocab: Record<string, number>
    unk_token: string
    continuing_subword_prefix: string
    max_input_chars_per_word: number
  }
}

const CONTROL = /[\p{Cc}\p{Cf}]/u
const WHITESPACE = /[\s\p{Zs}]/u
const PUNCTUATION = /[\p{P}$+<=>^`|~]/u
const MARK = /\p{Mn}/gu

function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  )
}

/** Cleans, lowercases and strips accents, then splits on whitespace, punctuation and CJK characters. */
function preTokenize(text: string): string[] {
  const words: string[] = []
  let word = ''
  const flush = () => {
    if (word !== '') words.push(word)
    word = ''
  }
  const normalized = text.toLowerCase().normalize('NFD').replace(MARK, '')
  for (const ch of normalized) {
    const cp = ch.codePointAt(0)!
    if (cp === 0 || cp === 0xfffd) continue
    if (WHITESPACE.test(ch)) flush()
    else if (CONTROL.test(ch)) continue
    else if (PUNCTUATION.test(ch) || isCjk(cp)) {
      flush()
      words.push(ch)
    } else word += ch
  }
  flush()
  return words
}

export function wordPieceTokenizer(json: TokenizerJson): WordPieceTokenizer {
  const { vocab, unk_token, continuing_subword_prefix: prefix, max_input_chars_per_word } = json.model
  const id = (piece: string) => vocab[piece]
  const unk = id(unk_token)!
  const cls = id('[CLS]')!
  const sep = id('[SEP]')!

  function pieces(word: string, out: number[]): void {
    const chars = [...word]
    if (chars.length > max_input_chars_per_word) {
      out.push(unk)
      return
    }
    const found: number[] = []
    let start = 0
    while (start < chars.length) {
      let end = chars.length
      let match: number | undefined
      while (end > start) {
        const piece = chars.slice(start, end).join('')
        match = id(start > 0 ? prefix + piece : piece)
        if (match !== undefined) break
        end -= 1
      }
      if (match === undefined) {
        out.push(unk)
        return
      }
      found.push(match)
      start = end
    }
    out.push(...found)
  }

  return {
    encode(text, maxTokens) {
      const ids = [cls]
      const limit = Math.max(2, maxTokens) - 1
      for (const word of preTokenize(text)) {
        pieces(word, ids)
        if (ids.length >= limit) break
      }
      ids.length = Math.min(ids.length, limit)
      ids.push(sep)
      return ids
    },
  }
}
