/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number

type O200k = typeof import('gpt-tokenizer/encoding/o200k_base')

/** Special-token text such as `<|endoftext|>` is counted as ordinary text instead of refused. */
const ORDINARY_TEXT = { disallowedSpecial: new Set<string>() }

let loading: Promise<TokenCounter> | undefined

/**
 * The one token counter of the context block: OpenAI's `o200k_base` encoding, the counter behind Honcho's
 * `token_count`. The encoding tables load on first use (a fraction of a second), so an augment that asks for
 * no context never pays for them.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then(counterOf, (error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}

function counterOf(o200k: O200k): TokenCounter {
  return (text) => {
    if (text.length === 0) return 0
    return text.includes('<|') ? o200k.countTokens(text, ORDINARY_TEXT) : o200k.countTokens(text)
  }
}
