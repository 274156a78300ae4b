import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmbeddingClient } from '../src/index'
import { expectExtractionError } from './expect-extraction-error'

/** Builds the client under test once per suite; `close` releases servers etc. */
export type EmbeddingContractSetup = () => Promise<{ client: EmbeddingClient; close?: () => Promise<void> }>

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0
    const y = b[i] ?? 0
    dot += x * y
    na += x * x
    nb += y * y
  }
  return dot / Math.sqrt(na * nb)
}

/** The behaviour every {@link EmbeddingClient} must have. */
export function describeEmbeddingClientContract(
  label: string,
  setup: EmbeddingContractSetup,
  options: { manyTexts?: number } = {},
): void {
  const many = options.manyTexts ?? 150
  describe(`EmbeddingClient contract: ${label}`, () => {
    let client: EmbeddingClient
    let close: (() => Promise<void>) | undefined
    beforeAll(async () => {
      const built = await setup()
      client = built.client
      close = built.close
    })
    afterAll(async () => {
      await close?.()
    })

    it('has a name and a model', () => {
      expect(client.name).toMatch(/\S/)
      expect(client.model).toMatch(/\S/)
    })

    it('returns one finite vector per text, all of one dimension', async () => {
      const vectors = await client.embed(['we deploy to Fly.io', 'Postgres', ''])
      expect(vectors).toHaveLength(3)
      const dims = vectors[0]?.length ?? 0
      expect(dims).toBeGreaterThan(1)
      if (client.dimensions !== undefined) expect(dims).toBe(client.dimensions)
      for (const v of vectors) {
        expect(v).toBeInstanceOf(Float32Array)
        expect(v.length).toBe(dims)
        expect(v.every((x) => Number.isFinite(x))).toBe(true)
      }
    })

    it('returns nothing for no texts', async () => {
      expect(await client.embed([])).toEqual([])
    })

    it('is deterministic and keeps input order', async () => {
      const texts = ['the API runs on Kubernetes', 'I prefer tabs', 'Atta works on MedFlow']
      const together = await client.embed(texts)
      const alone = await Promise.all(texts.map(async (t) => (await client.embed([t]))[0]))
      together.forEach((v, i) => {
        expect(cosine(v, alone[i] as Float32Array)).toBeGreaterThan(0.999)
      })
    })

    it('puts related texts closer than unrelated ones', async () => {
      const [a, b, c] = await client.embed([
        'we deploy the billing API to Fly.io',
        'the billing API is deployed on Fly.io',
        'my cat sleeps on the sofa all afternoon',
      ])
      expect(cosine(a as Float32Array, b as Float32Array)).toBeGreaterThan(
        cosine(a as Float32Array, c as Float32Array),
      )
    })

    it('handles more texts than one batch', async () => {
      const texts = Array.from({ length: many }, (_, i) => `note number ${i} about service ${i % 7}`)
      const vectors = await client.embed(texts)
      expect(vectors).toHaveLength(many)
      const again = await client.embed([texts[many - 1] as string])
      expect(cosine(vectors[many - 1] as Float32Array, again[0] as Float32Array)).toBeGreaterThan(0.999)
    })

    it('rejects with ABORTED when the signal is already aborted', async () => {
      const controller = new AbortController()
      controller.abort()
      await expectExtractionError(client.embed(['x'], { signal: controller.signal }), 'ABORTED')
    })
  })
}
