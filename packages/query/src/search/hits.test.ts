import { createFakeEmbeddings, createLLMReranker, createOpenAICompatibleLLM } from '@hymem/extraction'
import { type FakeOpenAIServer, startFakeOpenAIServer } from '@hymem/extraction/testing'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  indexVectors,
  insertChunk,
  insertMessages,
  openTestStore,
  type TestStore,
  WS,
} from '../../test/harness'
import { createQueryEngine } from '../engine'
import type { QueryLogEvent } from '../types'

const hitsOnly = { limits: { graph: 0, episodes: 0, procedures: 0, notes: 0 } }
// Keyword search over chunks (off by default) with context rescoring (tested on its own) off.
const CHUNKS_NO_CONTEXT = { keywordChunks: true, neighbourWeight: 0, sessionWeight: 0, peerMentionBoost: 0 }

for (const vectorMode of ['sqlite-vec', 'js-scan'] as const) {
  describe(`message and chunk hits (${vectorMode})`, () => {
    let t: TestStore
    let m: number[]
    let chunkDeploy: number
    let chunkDb: number
    const embeddings = createFakeEmbeddings({ dimensions: 64 })

    beforeEach(async () => {
      t = openTestStore({ loadVectorExtension: vectorMode === 'sqlite-vec' })
      expect(t.store.vectors.mode).toBe(vectorMode)
      m = [
        ...(await insertMessages(t.store, 's1', [
          { peerId: 'user', content: 'How do we deploy the billing worker?' },
          { peerId: 'atta', content: 'Deploy the billing worker with the staging script, then promote.' },
          { peerId: 'user', content: 'And the invoices cron job?' },
        ])),
        ...(await insertMessages(t.store, 's2', [
          { peerId: 'bob', content: 'Our postgres database stores every invoice.' },
          { peerId: 'bob', content: 'Deploy notes: bob prefers blue-green.' },
        ])),
      ]
      chunkDeploy = await insertChunk(t.store, 's1', 'Deploy the billing worker with the staging script', [
        m[0]!,
        m[1]!,
      ])
      chunkDb = await insertChunk(t.store, 's2', 'postgres database storing invoices', [m[3]!])
      await indexVectors(t.store, embeddings, 'chunks', [
        { id: chunkDeploy, text: 'Deploy the billing worker with the staging script' },
        { id: chunkDb, text: 'postgres database storing invoices' },
      ])
    })
    afterEach(() => t.close())

    it('finds messages and chunks by keyword, and drops messages a better chunk already covers', async () => {
      // Context rescoring (adjacent turns, session, peer mentions) is tested on its own; off here.
      const engine = createQueryEngine({ store: t.store, config: CHUNKS_NO_CONTEXT })
      const { hits } = await engine.augment('deploy billing worker', { workspaceId: WS, ...hitsOnly })
      const chunk = hits[0]!
      expect(chunk).toMatchObject({ kind: 'chunk', id: chunkDeploy })
      expect(chunk).toMatchObject({ sessionId: 's1', peerId: null, messageIds: [m[0], m[1]] })
      expect(chunk.whyRetrieved[0]).toMatch(/^keyword:chunks#1$/)
      const messageHits = hits.filter((h) => h.kind === 'message')
      expect(messageHits.map((h) => h.id)).toEqual([m[4]])
      expect(messageHits[0]).toMatchObject({ peerId: 'bob', sessionId: 's2', messageIds: [m[4]] })
      expect(messageHits[0]!.whyRetrieved).toEqual(['keyword:messages#3'])
    })

    it('adds chunks found only by vector search when an embedder is configured', async () => {
      const without = createQueryEngine({ store: t.store })
      expect((await without.augment('postgresql', { workspaceId: WS, ...hitsOnly })).hits).toEqual([])
      const engine = createQueryEngine({ store: t.store, embeddings })
      const { hits } = await engine.augment('postgresql', { workspaceId: WS, ...hitsOnly })
      expect(hits[0]).toMatchObject({ kind: 'chunk', id: chunkDb })
      expect(hits[0]!.whyRetrieved[0]).toMatch(/^semantic_0\.\d\d$/)
      const off = createQueryEngine({ store: t.store, embeddings, config: { vectorChunkWeight: 0 } })
      expect((await off.augment('postgresql', { workspaceId: WS, ...hitsOnly })).hits).toEqual([])
    })

    it('limits messages to the observed peer and chunks to its sessions', async () => {
      const engine = createQueryEngine({ store: t.store, embeddings })
      const { hits } = await engine.augment('deploy', { workspaceId: WS, peerId: 'bob', ...hitsOnly })
      expect(hits.length).toBeGreaterThan(0)
      for (const hit of hits) {
        expect(hit.sessionId).toBe('s2')
        if (hit.kind === 'message') expect(hit.peerId).toBe('bob')
      }
    })

    it('limits every source to the given sessions', async () => {
      const engine = createQueryEngine({ store: t.store, embeddings })
      const { hits } = await engine.augment('deploy postgres invoices', {
        workspaceId: WS,
        sessionIds: ['s1'],
        ...hitsOnly,
      })
      expect(hits.length).toBeGreaterThan(0)
      expect(hits.every((h) => h.sessionId === 's1')).toBe(true)
    })

    it('lexical-bonus fusion keeps cosine as relevance, computing it for keyword-only chunks', async () => {
      const engine = createQueryEngine({ store: t.store, embeddings, config: { fusion: 'lexical-bonus' } })
      const { hits } = await engine.augment('staging script', { workspaceId: WS, ...hitsOnly })
      const chunk = hits.find((h) => h.kind === 'chunk' && h.id === chunkDeploy)!
      const [cosine] = await embeddings.embed(['staging script'])
      const [stored] = await embeddings.embed(['Deploy the billing worker with the staging script'])
      let dot = 0
      for (let i = 0; i < cosine!.length; i++) dot += cosine![i]! * stored![i]!
      expect(chunk.score).toBeGreaterThan(0.1)
      expect(chunk.score).toBeLessThanOrEqual(dot + 0.1 + 1e-6)
      const message = hits.find((h) => h.kind === 'message')
      if (message) expect(message.score).toBeLessThanOrEqual(0.1)
    })

    it('honours the hits limit', async () => {
      const engine = createQueryEngine({ store: t.store })
      const { hits } = await engine.augment('deploy billing postgres invoices', {
        workspaceId: WS,
        limits: { ...hitsOnly.limits, hits: 1 },
      })
      expect(hits).toHaveLength(1)
    })
  })
}

describe('disagreement-gated reranking through a real OpenAI-compatible endpoint', () => {
  let server: FakeOpenAIServer
  let t: TestStore
  let ids: number[]
  let chunk: number
  const embeddings = createFakeEmbeddings({ dimensions: 64 })
  beforeAll(async () => {
    server = await startFakeOpenAIServer()
  })
  afterAll(() => server.close())
  beforeEach(async () => {
    server.reset()
    t = openTestStore()
    ids = await insertMessages(t.store, 's1', [
      { content: 'the cache layer is redis' },
      { content: 'redis cache eviction policy is allkeys-lru' },
    ])
    // No keyword in common with the queries below: vector search's #1 is a chunk keyword search never finds.
    chunk = await insertChunk(t.store, 's1', 'sessions are kept in memory', [ids[0]!])
    await indexVectors(t.store, embeddings, 'chunks', [{ id: chunk, text: 'sessions are kept in memory' }])
  })
  afterEach(() => t.close())

  const reranker = () =>
    createLLMReranker({
      llm: createOpenAICompatibleLLM({ apiKey: 'test', baseURL: server.url, model: 'judge', maxRetries: 0 }),
    })

  it('reranks when keyword and vector search disagree on #1, recording the judgement', async () => {
    server.script(
      (r) => r.kind === 'chat',
      (r) => {
        const idsInPrompt = [...r.user.matchAll(/\[id "([^"]+)"\]/g)].map((x) => x[1]!)
        return { json: { scores: idsInPrompt.map((id) => ({ id, score: id === `m:${ids[1]}` ? 5 : 1 })) } }
      },
    )
    const events: QueryLogEvent[] = []
    const engine = createQueryEngine({
      store: t.store,
      embeddings,
      reranker: reranker(),
      log: (e) => events.push(e),
    })
    const { hits } = await engine.augment('redis cache eviction', { workspaceId: WS, ...hitsOnly })
    expect(server.chatRequests).toHaveLength(1)
    expect(hits[0]).toMatchObject({ kind: 'message', id: ids[1] })
    expect(hits[0]!.whyRetrieved).toContain('rerank_5')
    expect(events.find((e) => e.kind === 'rerank')).toMatchObject({ candidates: 3, disagreement: 1 })
  })

  it('does not call the reranker when the threshold is above 1 (disabled)', async () => {
    const engine = createQueryEngine({
      store: t.store,
      embeddings,
      reranker: reranker(),
      config: { rerankAmbiguityThreshold: 1.01 },
    })
    const { hits } = await engine.augment('redis cache eviction', { workspaceId: WS, ...hitsOnly })
    expect(hits.length).toBeGreaterThan(0)
    expect(server.chatRequests).toHaveLength(0)
  })

  it('does not call the reranker when both searches agree on #1', async () => {
    const engine = createQueryEngine({ store: t.store, embeddings, reranker: reranker() })
    const { hits } = await engine.augment('sessions kept in memory', { workspaceId: WS, ...hitsOnly })
    expect(hits[0]).toMatchObject({ kind: 'chunk', id: chunk })
    expect(server.chatRequests).toHaveLength(0)
  })

  it('does not call the reranker without vector search (nothing to disagree with)', async () => {
    const engine = createQueryEngine({ store: t.store, reranker: reranker() })
    await engine.augment('redis cache eviction', { workspaceId: WS, ...hitsOnly })
    expect(server.chatRequests).toHaveLength(0)
  })

  it('degrades to the fused order when the reranker fails', async () => {
    server.fail({ kind: 'server_error' })
    const events: QueryLogEvent[] = []
    const engine = createQueryEngine({
      store: t.store,
      embeddings,
      reranker: reranker(),
      log: (e) => events.push(e),
    })
    const plain = await createQueryEngine({ store: t.store, embeddings }).augment('redis cache eviction', {
      workspaceId: WS,
      ...hitsOnly,
    })
    const { hits } = await engine.augment('redis cache eviction', { workspaceId: WS, ...hitsOnly })
    expect(hits.map((h) => `${h.kind}:${h.id}`)).toEqual(plain.hits.map((h) => `${h.kind}:${h.id}`))
    expect(events.some((e) => e.kind === 'rerank-failed')).toBe(true)
    expect(server.chatRequests).toHaveLength(1)
  })
})
