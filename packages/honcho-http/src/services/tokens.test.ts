import { describe, expect, it } from 'vitest'
import { countTokens, countTokensEach } from './tokens'

describe('countTokensEach', () => {
  it('counts each text as countTokens does, in order, yielding between texts of a long batch', async () => {
    const texts = Array.from(
      { length: 120 },
      (_, i) => `message ${i}: ${'we switched from mysql to postgres '.repeat(600)}`,
    )
    let turns = 0
    const ticker = setInterval(() => {
      turns++
    }, 0)
    const counts = await countTokensEach(texts)
    clearInterval(ticker)
    expect(counts).toEqual(texts.map(countTokens))
    expect(await countTokensEach([])).toEqual([])
    expect(turns).toBeGreaterThan(0)
  })
})
