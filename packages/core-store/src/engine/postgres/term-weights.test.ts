import { describe, expect, it } from 'vitest'
import { termWeights } from './term-weights'

const idf = (documents: number, total: number) => Math.log((total - documents + 0.5) / (documents + 0.5))

describe('termWeights', () => {
  it('labels up to four terms by IDF, rarest A, the most common left as D, relative to the rarest', () => {
    const { weights, labelled } = termWeights(
      [
        { lexemes: ['common'], documents: 400 },
        { lexemes: ['rare'], documents: 1 },
        { lexemes: ['mid'], documents: 50 },
      ],
      1000,
    )
    expect(labelled).toEqual({ A: ['rare'], B: ['mid'], C: [] })
    const top = idf(1, 1000)
    expect(weights[3]).toBe(1)
    expect(weights[2]).toBeCloseTo(idf(50, 1000) / top, 10)
    expect(weights[0]).toBeCloseTo(idf(400, 1000) / top, 10)
  })

  it('floors the IDF of a word in most rows at 1e-6, as FTS5 does', () => {
    const { weights } = termWeights(
      [
        { lexemes: ['everywhere'], documents: 900 },
        { lexemes: ['once'], documents: 1 },
      ],
      1000,
    )
    expect(weights[0]).toBeCloseTo(1e-6 / idf(1, 1000), 15)
    expect(weights[0]).toBeGreaterThan(0)
  })

  it('groups more than four terms into four, skips words with no lexeme, and merges repeated ones', () => {
    const terms = [1, 2, 5, 10, 50, 100, 200, 300].map((documents, at) => ({
      lexemes: [`w${at}`],
      documents,
    }))
    const { weights, labelled } = termWeights(
      [...terms, { lexemes: [], documents: 0 }, { lexemes: ['w0'], documents: 1 }],
      1000,
    )
    expect(labelled).toEqual({ A: ['w0', 'w1'], B: ['w2', 'w3'], C: ['w4', 'w5'] })
    expect(weights[3]).toBeCloseTo((idf(1, 1000) + idf(2, 1000)) / 2 / idf(1, 1000), 10)
    expect([...weights].sort((a, b) => a - b)).toEqual([...weights])
  })

  it('gives a single term the whole weight, as D', () => {
    expect(termWeights([{ lexemes: ['only'], documents: 3 }], 10)).toEqual({
      weights: [1, 0, 0, 0],
      labelled: { A: [], B: [], C: [] },
    })
  })
})
