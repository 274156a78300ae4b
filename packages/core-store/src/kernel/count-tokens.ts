/** Counts the tokens of a text: the one counter behind every stored `token_count`. */
export type TokenCounter = (text: string) => number

type O200k = typeof import('gpt-tokenizer/encoding/o200k_base')

/** Special-token text such as `<|endoftext|>` is counted as ordinary text instead of refused. */
const ORDINARY_TEXT = { disallowedSpecial: new Set<string>() }

let loading: Promise<TokenCounter> | undefined

/**
 * The token counter, OpenAI's `o200k_base` encoding (the Honcho protocol's `token_count`). The encoding
 * tables load on first use (about a quarter of a second), so opening a store never pays for them.
 *
 * @example
 * const count = await loadTokenCounter()
 * count('Hello there') // 2
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then(counterOf, (error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}

/** Counts the tokens of one text (see {@link loadTokenCounter}). */
export async function countTokens(text: string): Promise<number> {
  return (await loadTokenCounter())(text)
}

function counterOf(o200k: O200k): TokenCounter {
  return (text) => {
    if (text.length === 0) return 0
    return text.includes('<|') ? o200k.countTokens(text, ORDINARY_TEXT) : o200k.countTokens(text)
  }
}
