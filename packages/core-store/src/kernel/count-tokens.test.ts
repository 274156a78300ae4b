import { describe, expect, it } from 'vitest'
import { countTokens, loadTokenCounter } from './count-tokens'

describe('countTokens (o200k_base)', () => {
  it('counts tokens as OpenAI o200k_base does, zero for an empty text', async () => {
    expect(await countTokens('')).toBe(0)
    expect(await countTokens('Hello world')).toBe(2)
    expect(await countTokens('We switched from MySQL to Postgres for billing.')).toBe(11)
  })

  it('counts special-token text as ordinary text instead of refusing it', async () => {
    const count = await loadTokenCounter()
    expect(count('before <|endoftext|> after')).toBeGreaterThan(3)
  })

  it('loads the encoding once', async () => {
    expect(await loadTokenCounter()).toBe(await loadTokenCounter())
  })
})
