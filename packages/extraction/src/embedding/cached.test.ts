import { describe, expect, it } from 'vitest'
import { cachedEmbeddings } from './cached'
import { createFakeEmbeddings } from './fake'
import type { EmbeddingClient } from './types'

describe('cachedEmbeddings', () => {
  it('serves repeats from the cache and sends only misses, once each', async () => {
    const inner = createFakeEmbeddings()
    const cached = cachedEmbeddings(inner, 8)
    const first = await cached.embed(['a', 'b', 'a'])
    expect(cached.stats).toEqual({ hits: 1, misses: 2 })
    expect(inner.textsEmbedded).toBe(2)
    const second = await cached.embed(['b', 'c'])
    expect(cached.stats).toEqual({ hits: 2, misses: 3 })
    expect(inner.textsEmbedded).toBe(3)
    expect(Array.from(second[0] as Float32Array)).toEqual(Array.from(first[1] as Float32Array))
    expect(Array.from(first[2] as Float32Array)).toEqual(Array.from(first[0] as Float32Array))
  })

  it('evicts the least recently used entry', async () => {
    const inner = createFakeEmbeddings()
    const cached = cachedEmbeddings(inner, 2)
    await cached.embed(['a'])
    await cached.embed(['b'])
    await cached.embed(['a'])
    await cached.embed(['c'])
    await cached.embed(['a'])
    expect(inner.textsEmbedded).toBe(3)
    await cached.embed(['b'])
    expect(inner.textsEmbedded).toBe(4)
  })

  it('returns copies so callers cannot corrupt the cache', async () => {
    const cached = cachedEmbeddings(createFakeEmbeddings())
    const [v] = await cached.embed(['x'])
    v?.fill(0)
    const [again] = await cached.embed(['x'])
    expect(again?.some((x) => x !== 0)).toBe(true)
  })

  it('keys on the model, so two models never share vectors', async () => {
    const a = createFakeEmbeddings({ dimensions: 8 })
    const b = createFakeEmbeddings({ dimensions: 16 })
    const ca = cachedEmbeddings(a)
    const cb = cachedEmbeddings(b)
    expect((await ca.embed(['same']))[0]).toHaveLength(8)
    expect((await cb.embed(['same']))[0]).toHaveLength(16)
    expect(ca.model).not.toBe(cb.model)
  })

  it('fails loudly when the wrapped client returns too few vectors', async () => {
    const broken: EmbeddingClient = { name: 'broken', model: 'broken', embed: async () => [] }
    await expect(cachedEmbeddings(broken).embed(['x'])).rejects.toMatchObject({ code: 'BAD_RESPONSE' })
  })
})
