import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base'

/** Token count with OpenAI's `o200k_base` encoding (Honcho's `token_count`). */
export function countTokens(text: string): number {
  return text.length === 0 ? 0 : countO200k(text)
}
