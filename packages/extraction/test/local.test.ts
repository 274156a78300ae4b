import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLocalEmbeddings, LOCAL_EMBEDDING_DIMENSIONS } from '../src/local'
import { describeEmbeddingClientContract } from './embedding-contract'

// The local model must load with the network off: any fetch during these tests fails loudly.
const realFetch = globalThis.fetch
const attempted: string[] = []
beforeAll(() => {
  globalThis.fetch = (async (input: string | URL | Request) => {
    attempted.push(String(input))
    throw new Error('network is off in this test')
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

const local = createLocalEmbeddings()

// 40 texts still span two of the client's 32-text batches while keeping the CPU model quick.
describeEmbeddingClientContract('local USE-lite (offline)', async () => ({ client: local }), {
  manyTexts: 40,
})

describe('createLocalEmbeddings', () => {
  it('identifies itself and makes 512-d vectors without touching the network', async () => {
    expect(local.name).toBe('local:use-lite')
    expect(local.dimensions).toBe(LOCAL_EMBEDDING_DIMENSIONS)
    const [v] = await local.embed(['Atta is working on MedFlow'])
    expect(v).toHaveLength(512)
    expect(attempted).toEqual([])
  })
})
