import { describe, expect, it } from 'vitest'
import { createTermFrequencyCache } from './term-frequency-cache'

describe('createTermFrequencyCache', () => {
  it('keeps counts per table, workspace and term until they are 30 s old', () => {
    let now = 0
    const cache = createTermFrequencyCache(() => now)
    cache.rememberTerm('messages', 'w1', 'kafka', { lexemes: ['kafka'], documents: 3 })
    cache.rememberTotal('messages', 'w1', 500)
    expect(cache.term('messages', 'w1', 'kafka')).toEqual({ lexemes: ['kafka'], documents: 3 })
    expect(cache.term('messages', 'w2', 'kafka')).toBeUndefined()
    expect(cache.term('notes', 'w1', 'kafka')).toBeUndefined()
    expect(cache.total('messages', 'w1')).toBe(500)
    expect(cache.total('messages', 'w2')).toBeUndefined()

    now = 30_000
    expect(cache.term('messages', 'w1', 'kafka')?.documents).toBe(3)
    now = 30_001
    expect(cache.term('messages', 'w1', 'kafka')).toBeUndefined()
    expect(cache.total('messages', 'w1')).toBeUndefined()
  })

  it('restarts the age of a term counted again', () => {
    let now = 0
    const cache = createTermFrequencyCache(() => now)
    cache.rememberTerm('chunks', 'w', 'go', { lexemes: ['go'], documents: 1 })
    now = 20_000
    cache.rememberTerm('chunks', 'w', 'go', { lexemes: ['go'], documents: 7 })
    now = 45_000
    expect(cache.term('chunks', 'w', 'go')?.documents).toBe(7)
  })

  it('drops the oldest entries beyond 50,000', () => {
    const cache = createTermFrequencyCache(() => 0)
    for (let i = 0; i <= 50_000; i++) cache.rememberTotal('messages', `w${i}`, i)
    expect(cache.total('messages', 'w0')).toBeUndefined()
    expect(cache.total('messages', 'w1')).toBe(1)
    expect(cache.total('messages', 'w50000')).toBe(50_000)
  })
})
