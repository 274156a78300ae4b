import { describe, expect, it } from 'vitest'
import { ExtractionError } from '../errors'
import { createFakeEmbeddings } from './fake'

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0)

describe('createFakeEmbeddings', () => {
  it('makes unit vectors of the requested dimension and counts calls', async () => {
    const fake = createFakeEmbeddings({ dimensions: 32 })
    const [v] = await fake.embed(['Postgres runs on Hetzner'])
    expect(v).toHaveLength(32)
    expect(dot(v as Float32Array, v as Float32Array)).toBeCloseTo(1, 5)
    await fake.embed(['a', 'b'])
    expect([fake.calls, fake.textsEmbedded]).toEqual([2, 3])
  })

  it('scores texts sharing words above unrelated texts', async () => {
    const [a, b, c] = await createFakeEmbeddings().embed([
      'we use postgres for billing',
      'billing uses postgres',
      'the weather is nice today',
    ])
    expect(dot(a as Float32Array, b as Float32Array)).toBeGreaterThan(
      dot(a as Float32Array, c as Float32Array) + 0.2,
    )
  })

  it('gives empty text a fixed unit vector and rejects bad dimensions', async () => {
    const [e] = await createFakeEmbeddings({ dimensions: 4 }).embed([''])
    expect(Array.from(e as Float32Array)).toEqual([1, 0, 0, 0])
    expect(() => createFakeEmbeddings({ dimensions: 1 })).toThrow(ExtractionError)
  })
})
