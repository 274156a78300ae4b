import { describe, expect, it } from 'vitest'
import { tripleKey } from './feedback'
import { inferDependencies } from './inference'

let nextId = 1
const edge = (subject: string, object: string, confidence = 0.8) => ({
  id: nextId++,
  subject,
  object,
  confidence,
  lastReinforced: '2026-01-01T00:00:00.000Z',
  validFrom: '2026-01-01T00:00:00.000Z',
})
const pairs = (derived: ReturnType<typeof inferDependencies>) =>
  derived.map((d) => [d.subject, d.object, Math.round(d.confidence * 1000) / 1000])

describe('inferDependencies', () => {
  it('closes depends_on chains breadth first with the product of confidences', () => {
    const derived = inferDependencies(
      [edge('a', 'b'), edge('b', 'c'), edge('c', 'd', 0.5)],
      [],
      0.15,
      new Set(),
    )
    expect(pairs(derived)).toEqual([
      ['a', 'c', 0.64],
      ['a', 'd', 0.32],
      ['b', 'd', 0.4],
    ])
  })

  it('folds the uses hop into depends_on', () => {
    const derived = inferDependencies(
      [edge('redis', 'jemalloc'), edge('jemalloc', 'libc')],
      [edge('api', 'redis', 0.9)],
      0.15,
      new Set(),
    )
    expect(pairs(derived)).toEqual([
      ['api', 'jemalloc', 0.72],
      ['api', 'libc', 0.576],
      ['redis', 'libc', 0.64],
    ])
  })

  it('drops facts under the threshold, self loops, cycles and facts already stated or retracted', () => {
    const derived = inferDependencies(
      [edge('a', 'b', 0.3), edge('b', 'c', 0.3), edge('x', 'y'), edge('y', 'x'), edge('y', 'z')],
      [],
      0.15,
      new Set([tripleKey({ subject: 'x', predicate: 'depends_on', object: 'z' })]),
    )
    expect(pairs(derived)).toEqual([])
  })

  it('keeps the most confident path', () => {
    const derived = inferDependencies(
      [edge('a', 'b', 0.9), edge('b', 'd', 0.9), edge('a', 'c', 0.5), edge('c', 'd', 0.5)],
      [],
      0.15,
      new Set(),
    )
    expect(derived.find((d) => d.object === 'd')?.premises.map((p) => p.object)).toEqual(['b', 'd'])
  })
})
