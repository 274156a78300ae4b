import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expectExtractionError } from '../../test/expect-extraction-error'
import { startFakeOpenAIServer } from '../testing/fake-server'
import type { FakeOpenAIServer } from '../testing/types'
import { _hashEmbedding } from './hash-features'
import { createOpenAICompatibleEmbeddings } from './openai-compatible'

let server: FakeOpenAIServer
beforeEach(async () => {
  server = await startFakeOpenAIServer({ embeddingDimensions: 16 })
})
afterEach(async () => {
  await server.close()
})

const client = (opts: Partial<Parameters<typeof createOpenAICompatibleEmbeddings>[0]> = {}) =>
  createOpenAICompatibleEmbeddings({ apiKey: 'k', baseURL: server.url, model: 'fake-embedding', ...opts })

describe('createOpenAICompatibleEmbeddings', () => {
  it('splits input into batches and keeps order', async () => {
    const texts = ['a one', 'b two', 'c three', 'd four', 'e five']
    const vectors = await client({ batchSize: 2 }).embed(texts)
    expect(server.embeddingRequests.map((r) => r.inputs)).toEqual([
      ['a one', 'b two'],
      ['c three', 'd four'],
      ['e five'],
    ])
    expect(vectors.map((v) => Array.from(v))).toEqual(texts.map((t) => Array.from(_hashEmbedding(t, 16))))
    expect(server.embeddingRequests[0]?.body).toMatchObject({
      model: 'fake-embedding',
      encoding_format: 'float',
    })
  })

  it('learns the dimension from the first answer and sends a requested one', async () => {
    const c = client()
    expect(c.dimensions).toBeUndefined()
    await c.embed(['x'])
    expect(c.dimensions).toBe(16)
    const sized = client({ dimensions: 8 })
    const [v] = await sized.embed(['x'])
    expect(v).toHaveLength(8)
    expect(server.embeddingRequests.at(-1)?.body).toMatchObject({ dimensions: 8 })
  })

  it('refuses vectors of the wrong dimension', async () => {
    server.script('x', { body: { data: [{ index: 0, embedding: [0.1, 0.2] }] } })
    const err = await expectExtractionError(client({ dimensions: 8 }).embed(['x']))
    expect(err.code).toBe('BAD_RESPONSE')
    expect(err.message).toContain('2-d vectors but 8 were expected')
  })

  it('refuses an answer with the wrong number of vectors', async () => {
    server.script('x', { body: { data: [] } })
    const err = await expectExtractionError(client().embed(['x']))
    expect(err.code).toBe('BAD_RESPONSE')
  })

  it('retries 429 and 500, then succeeds', async () => {
    server.fail({ kind: 'rate_limit', retryAfterSeconds: 0 })
    server.fail({ kind: 'server_error' })
    const vectors = await client({ maxRetries: 3 }).embed(['x'])
    expect(vectors).toHaveLength(1)
    expect(server.embeddingRequests).toHaveLength(3)
  })

  it('names the embedding key variable on 401', async () => {
    server.fail({ kind: 'unauthorized' })
    const err = await expectExtractionError(client().embed(['x']))
    expect(err.code).toBe('AUTH')
    expect(err.message).toMatch(
      /^key rejected by http:\/\/127\.0\.0\.1:\d+\/v1 \(HTTP 401\): check HYMEM_EMBEDDING_API_KEY$/,
    )
  })

  it('names the embedding model on 404', async () => {
    server.fail({ kind: 'model_not_found' })
    const err = await expectExtractionError(client({ model: 'nope-embed' }).embed(['x']))
    expect(err.code).toBe('MODEL_NOT_FOUND')
    expect(err.message).toContain('model nope-embed not found')
    expect(err.message).toContain('check HYMEM_EMBEDDING_MODEL')
  })

  it('times out, reports malformed JSON and unreachable hosts', async () => {
    server.fail({ kind: 'timeout' })
    await expectExtractionError(client({ timeoutMs: 100, maxRetries: 0 }).embed(['x']), 'TIMEOUT')
    server.fail({ kind: 'malformed_json' })
    await expectExtractionError(client({ maxRetries: 0 }).embed(['x']), 'BAD_RESPONSE')
    const gone = await startFakeOpenAIServer()
    await gone.close()
    const err = await expectExtractionError(
      createOpenAICompatibleEmbeddings({ apiKey: 'k', baseURL: gone.url, maxRetries: 0 }).embed(['x']),
    )
    expect(err.code).toBe('UNREACHABLE')
  })

  it('aborts in-flight batches', async () => {
    server.fail({ kind: 'timeout' })
    const controller = new AbortController()
    const pending = client().embed(['x'], { signal: controller.signal })
    setTimeout(() => controller.abort(), 30)
    await expectExtractionError(pending, 'ABORTED')
  })

  it('bounds the batches in flight', async () => {
    server.setLatency(40)
    await client({ batchSize: 1, concurrency: 3 }).embed(Array.from({ length: 9 }, (_, i) => `t${i}`))
    expect(server.stats.maxInFlight).toBe(3)
  })
})
