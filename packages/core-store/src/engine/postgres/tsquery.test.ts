import { describe, expect, it } from 'vitest'
import { ENGLISH_STOP_WORDS } from '../../text'
import { buildTsquery } from './tsquery'

describe('buildTsquery', () => {
  it('quotes every word, so tsquery operators typed by the user are searched as words or dropped', () => {
    expect(buildTsquery("deploy 'staging' & !prod | (a <-> b):*")).toBe(
      "'deploy' | 'staging' | 'prod' | 'a' | 'b'",
    )
    expect(buildTsquery('')).toBeNull()
    expect(buildTsquery('&|!():*<->')).toBeNull()
  })

  it('searches the same words as the SQLite backend: split like FTS5, de-duplicated, capped', () => {
    expect(buildTsquery('Café_au-lait x2 café CAFÉ Deploy deploy')).toBe(
      "'Café' | 'au' | 'lait' | 'x2' | 'café' | 'CAFÉ' | 'Deploy'",
    )
    expect(
      buildTsquery(
        'w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19 w20 w21 w22 w23 w24 w25 w26 w27 w28 w29 w30 w31 w32 w33',
      ),
    ).not.toContain('w33')
  })

  it('joins with & in all-words mode, and makes the last word a prefix when asked', () => {
    expect(buildTsquery('deploy stag', { mode: 'and', prefixLastTerm: true })).toBe("'deploy' & 'stag':*")
  })

  it('leaves stop words out unless nothing else is left', () => {
    expect(buildTsquery('what is the plan', { stopWords: ENGLISH_STOP_WORDS })).toBe("'plan'")
    expect(buildTsquery('to be or not', { stopWords: ENGLISH_STOP_WORDS })).toBe("'to' | 'be' | 'or' | 'not'")
  })
})
