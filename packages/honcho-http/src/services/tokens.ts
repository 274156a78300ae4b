import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base'

/** Token count with OpenAI's `o200k_base` encoding (Honcho's `token_count`). */
export function countTokens(text: string): number {
  return text.length === 0 ? 0 : countO200k(text)
}

/** Longest stretch of counting before the event loop gets a turn (a 2 MiB batch counts for ~50 ms). */
const SLICE_MS = 8

/**
 * Counts the tokens of many texts, letting the event loop run between texts once a slice of `SLICE_MS`
 * is used up: a batch of large messages never holds the thread (and every other request) for long.
 */
export async function countTokensEach(texts: readonly string[]): Promise<number[]> {
  const counts: number[] = []
  let sliceStart = performance.now()
  for (const text of texts) {
    if (performance.now() - sliceStart >= SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve))
      sliceStart = performance.now()
    }
    counts.push(countTokens(text))
  }
  return counts
}
