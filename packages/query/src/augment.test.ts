import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cachedEmbeddings, createFakeEmbeddings, createOpenAICompatibleEmbeddings } from '@hymem/extraction'
import { type FakeOpenAIServer, startFakeOpenAIServer } from '@hymem/extraction/testing'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  indexVectors,
  insertChunk,
  insertEdge,
  insertEpisode,
  insertMessages,
  insertNote,
  insertProcedure,
  openTestStore,
  searchLogRows,
  type TestStore,
  WS,
} from '../test/harness'
import { createQueryEngine } from './engine'
import { QueryError } from './errors'
import type { AugmentedContext, QueryLogEvent } from './types'

/** A small but complete memory: messages, a chunk, edges, an episode, a procedure and a note. */
async function seed(t: TestStore) {
  const ids = await insertMessages(t.store, 's1', [
    { content: 'We moved the API to Postgres last week' },
    { content: 'Atta prefers Dutch for documentation', peerId: 'atta' },
    { content: 'Привет, база данных работает' },
    { content: '東京 サーバー 移行' },
  ])
  const chunk = await insertChunk(t.store, 's1', 'We moved the API to Postgres last week', [ids[0]!])
  await insertEdge(t.store, {
    subject: 'api',
    predicate: 'uses',
    object: 'postgres',
    evidence: [{ chunkId: chunk, messageIds: [ids[0]!] }],
  })
  await insertEdge(t.store, { subject: 'atta', predicate: 'prefers', object: 'dutch' })
  await insertEpisode(t.store, {
    id: 'ep1',
    sessionId: 's1',
    title: 'Postgres move',
    summary: 'API moved to postgres',
  })
  await insertProcedure(t.store, {
    id: 'p1',
    sessionId: 's1',
    name: 'Postgres failover',
    description: 'promote the replica',
    steps: ['promote replica'],
  })
  await insertNote(t.store, { id: 'n1', description: 'postgres credentials', content: 'in the vault' })
  return { ids, chunk }
}

describe('augment', () => {
  let t: TestStore
  let seeded: Awaited<ReturnType<typeof seed>>
  beforeEach(async () => {
    t = openTestStore()
    seeded = await seed(t)
  })
  afterEach(() => t.close())

  it('returns every kind with provenance, one rank order over all of them, and stage timings', async () => {
    const engine = createQueryEngine({ store: t.store, embeddings: createFakeEmbeddings({ dimensions: 32 }) })
    const context = await engine.augment('how did the api move to postgres?', {
      workspaceId: WS,
      userMd: '# User\nprefers short answers',
      memoryMd: '# Memory',
    })
    expect(context).toMatchObject({
      query: 'how did the api move to postgres?',
      workspaceId: WS,
      userMd: '# User\nprefers short answers',
      memoryMd: '# Memory',
      matchedEntities: ['api'],
    })
    // Chunks are searched by vector only by default (none indexed here); the matching turn ranks first.
    expect(context.hits[0]).toMatchObject({ kind: 'message', id: seeded.ids[0], messageIds: [seeded.ids[0]] })
    expect(context.graphFacts[0]).toMatchObject({
      subject: 'api',
      object: 'postgres',
      messageIds: [seeded.ids[0]],
    })
    expect(context.episodes.map((e) => e.id)).toEqual(['ep1'])
    expect(context.procedures.map((p) => p.id)).toEqual(['p1'])
    expect(context.notes.map((n) => n.id)).toEqual(['n1'])
    expectRankedCoversEverything(context)
    expect(context.ranked[0]).toMatchObject({ kind: 'hit', score: 1 })
    for (const stage of [
      'profile',
      'hits',
      'keyword',
      'vector',
      'fusion',
      'episodes',
      'procedures',
      'notes',
      'entities',
      'graph',
      'log',
      'total',
    ])
      expect(context.timings[stage], stage).toBeGreaterThanOrEqual(0)
  })

  it('without an embedder degrades to keyword + graph + recency and still answers', async () => {
    const engine = createQueryEngine({ store: t.store })
    const context = await engine.augment('postgres', { workspaceId: WS })
    expect(context.hits.length).toBeGreaterThan(0)
    expect(context.hits.flatMap((h) => h.whyRetrieved).some((w) => w.startsWith('semantic_'))).toBe(false)
    expect(context.graphFacts.length).toBeGreaterThan(0)
    const offTopic = await engine.augment('zzz qqq', { workspaceId: WS })
    expect(offTopic.hits).toEqual([])
    expect(offTopic.graphFacts.every((f) => f.whyRetrieved[0] === 'fallback:recency')).toBe(true)
  })

  it('searches non-Latin text', async () => {
    const engine = createQueryEngine({ store: t.store })
    expect((await engine.augment('база данных', { workspaceId: WS })).hits[0]).toMatchObject({
      id: seeded.ids[2],
    })
    expect((await engine.augment('東京', { workspaceId: WS })).hits[0]).toMatchObject({ id: seeded.ids[3] })
  })

  const HOSTILE: [string, string][] = [
    ['FTS5 syntax', 'body:"x" OR (NEAR(a b, 2) AND -c^ NOT d* postgres'],
    ['unbalanced quotes and operators', '"postgres AND ( OR * ^'],
    ['only operators', 'AND OR NOT NEAR'],
    ['SQL injection', "'; DROP TABLE messages; -- postgres"],
    ['empty', ''],
    ['whitespace', ' \t\n '],
    ['emoji', '🙂🙂 👩‍👩‍👧 postgres 🚀'],
    ['lone surrogates and control characters', '\ud800 \u0000 \u0007 postgres \udfff'],
    ['Arabic', 'ما هي قاعدة البيانات'],
    ['100 KB of words', 'postgres api migration '.repeat(4400)],
    ['100 KB single token', 'x'.repeat(100_000)],
    [
      '100 KB of random code points',
      Array.from({ length: 50_000 }, (_, i) => String.fromCodePoint(32 + ((i * 7919) % 60000))).join(''),
    ],
  ]

  for (const withEmbedder of [false, true]) {
    describe(`hostile queries ${withEmbedder ? 'with' : 'without'} an embedder`, () => {
      it.each(HOSTILE)('%s: answers or returns an empty context, never throws', async (_label, query) => {
        const engine = createQueryEngine({
          store: t.store,
          ...(withEmbedder ? { embeddings: createFakeEmbeddings({ dimensions: 32 }) } : {}),
        })
        const context = await engine.augment(query, { workspaceId: WS })
        expect(context.query).toBe(query)
        expectRankedCoversEverything(context)
        expect(await t.store.messages.count(WS)).toBe(4)
        if (query.includes('postgres') && query.length < 1000) expect(context.hits.length).toBeGreaterThan(0)
      })
    })
  }

  it('logs one search_log row per augment with counts, top score and latency', async () => {
    const engine = createQueryEngine({ store: t.store })
    const context = await engine.augment('postgres', { workspaceId: WS })
    await engine.augment('x'.repeat(5000), { workspaceId: WS })
    const rows = await searchLogRows(t.store)
    expect(rows).toHaveLength(2)
    const returned =
      context.hits.length +
      context.graphFacts.length +
      context.episodes.length +
      context.procedures.length +
      context.notes.length
    expect(rows[0]).toMatchObject({
      surface: 'augment',
      query: 'postgres',
      hits: returned,
      topScore: context.ranked[0]!.score,
    })
    expect(rows[0]!.candidates).toBeGreaterThanOrEqual(returned)
    expect(rows[0]!.latencyMs).toBeGreaterThan(0)
    expect(rows[1]!.query).toHaveLength(500)
    const quiet = createQueryEngine({ store: t.store, config: { searchLog: false } })
    await quiet.augment('postgres', { workspaceId: WS })
    expect(await searchLogRows(t.store)).toHaveLength(2)
  })

  it('reads USER.md and MEMORY.md from the configured paths when not handed their contents', async () => {
    writeFileSync(join(t.dir, 'USER.md'), '# User\nlikes tea\n')
    const events: QueryLogEvent[] = []
    const engine = createQueryEngine({
      store: t.store,
      files: { userMd: join(t.dir, 'USER.md'), memoryMd: join(t.dir, 'missing', 'MEMORY.md') },
      log: (e) => events.push(e),
    })
    const context = await engine.augment('tea', { workspaceId: WS })
    expect(context.userMd).toBe('# User\nlikes tea\n')
    expect(context.memoryMd).toBe('')
    expect((await engine.augment('tea', { workspaceId: WS, userMd: 'given' })).userMd).toBe('given')
    const dirAsFile = createQueryEngine({
      store: t.store,
      files: { userMd: t.dir },
      log: (e) => events.push(e),
    })
    expect((await dirAsFile.augment('tea', { workspaceId: WS })).userMd).toBe('')
    expect(events.some((e) => e.kind === 'profile-read-failed')).toBe(true)
  })

  it('refuses bad options with a clear error', async () => {
    const engine = createQueryEngine({ store: t.store })
    const attempt = (message: unknown, options: unknown) =>
      engine.augment(message as string, options as Parameters<typeof engine.augment>[1])
    await expect(attempt('x', {})).rejects.toThrowErrorMatchingInlineSnapshot(
      `[QueryError: augment() needs options.workspaceId (a non-empty string)]`,
    )
    await expect(
      attempt('x', { workspaceId: WS, limits: { hits: -1 } }),
    ).rejects.toThrowErrorMatchingInlineSnapshot(
      `[QueryError: augment() limits.hits must be an integer 0..1000, got -1]`,
    )
    await expect(
      attempt('x', { workspaceId: WS, asOf: 'yesterday' }),
    ).rejects.toThrowErrorMatchingInlineSnapshot(
      `[QueryError: augment() asOf is not a valid time: yesterday]`,
    )
    await expect(attempt(42, { workspaceId: WS })).rejects.toThrowErrorMatchingInlineSnapshot(
      `[QueryError: augment() needs the message as a string]`,
    )
    await expect(attempt('x', { workspaceId: WS, sessionIds: 's1' })).rejects.toBeInstanceOf(QueryError)
  })

  it('stops with QueryError ABORTED when the signal fires', async () => {
    const engine = createQueryEngine({ store: t.store })
    const controller = new AbortController()
    controller.abort(new Error('user left'))
    await expect(
      engine.augment('postgres', { workspaceId: WS, signal: controller.signal }),
    ).rejects.toMatchObject({
      code: 'ABORTED',
    })
  })

  it('a workspace with nothing in it yields an empty context', async () => {
    const engine = createQueryEngine({ store: t.store, embeddings: createFakeEmbeddings() })
    const context = await engine.augment('postgres', { workspaceId: 'empty' })
    expect(context).toMatchObject({
      hits: [],
      graphFacts: [],
      episodes: [],
      procedures: [],
      notes: [],
      ranked: [],
    })
  })
})

describe('augment against a real OpenAI-compatible embedding endpoint', () => {
  let server: FakeOpenAIServer
  let t: TestStore
  beforeAll(async () => {
    server = await startFakeOpenAIServer({ embeddingDimensions: 32 })
  })
  afterAll(() => server.close())
  beforeEach(async () => {
    server.reset()
    t = openTestStore()
    const { chunk } = await seed(t)
    const indexer = createFakeEmbeddings({ dimensions: 32 })
    const client = createOpenAICompatibleEmbeddings({
      apiKey: 'k',
      baseURL: server.url,
      model: indexer.model,
      maxRetries: 0,
    })
    await indexVectors(t.store, client, 'chunks', [
      { id: chunk, text: 'We moved the API to Postgres last week' },
    ])
    await indexVectors(t.store, client, 'notes', [{ id: 'n1', text: 'postgres credentials in the vault' }])
    server.reset()
  })
  afterEach(() => t.close())

  const client = (model = 'fake-hash-32') =>
    createOpenAICompatibleEmbeddings({ apiKey: 'k', baseURL: server.url, model, maxRetries: 0 })

  it('embeds the query once per augment, and the cached wrapper serves repeats without a request', async () => {
    const embeddings = cachedEmbeddings(client())
    const engine = createQueryEngine({ store: t.store, embeddings })
    const first = await engine.augment('postgresql migration', { workspaceId: WS })
    expect(server.embeddingRequests).toHaveLength(1)
    expect(first.hits.flatMap((h) => h.whyRetrieved).some((w) => w.startsWith('semantic_'))).toBe(true)
    const second = await engine.augment('postgresql migration', { workspaceId: WS })
    expect(server.embeddingRequests).toHaveLength(1)
    expect(embeddings.stats).toEqual({ hits: 1, misses: 1 })
    expect(second.hits).toEqual(first.hits)
  })

  it('embeds the query in the first person of the peers it names, as their turns are told', async () => {
    const engine = createQueryEngine({ store: t.store, embeddings: client() })
    await engine.augment("What does Atta's team write documentation in?", { workspaceId: WS })
    await engine.augment('What does atta say, Atta?', { workspaceId: WS })
    expect(server.embeddingRequests.map((request) => request.inputs)).toEqual([
      ['What does my team write documentation in?'],
      ['What does I say, I?'],
    ])
    const unboosted = createQueryEngine({
      store: t.store,
      embeddings: client(),
      config: { peerMentionBoost: 0 },
    })
    await unboosted.augment('What does Atta say?', { workspaceId: WS })
    expect(server.embeddingRequests.at(-1)?.inputs).toEqual(['What does Atta say?'])
  })

  it('keeps answering from keywords when the embedder fails', async () => {
    server.fail({ kind: 'server_error' })
    const events: QueryLogEvent[] = []
    const engine = createQueryEngine({ store: t.store, embeddings: client(), log: (e) => events.push(e) })
    const context = await engine.augment('postgres', { workspaceId: WS })
    expect(context.hits.length).toBeGreaterThan(0)
    expect(context.hits.flatMap((h) => h.whyRetrieved).some((w) => w.startsWith('semantic_'))).toBe(false)
    expect(events.find((e) => e.kind === 'embed-failed')).toMatchObject({
      client: 'openai-compatible:fake-hash-32',
    })
  })

  it('keeps answering when the vector index was built with another model', async () => {
    const events: QueryLogEvent[] = []
    const engine = createQueryEngine({
      store: t.store,
      embeddings: client('other-model'),
      log: (e) => events.push(e),
    })
    const context = await engine.augment('postgres', { workspaceId: WS })
    expect(context.hits.length).toBeGreaterThan(0)
    expect(
      events
        .filter((e) => e.kind === 'vector-failed')
        .map((e) => (e as { index: string }).index)
        .sort(),
    ).toEqual(['chunks', 'notes'])
  })
})

function expectRankedCoversEverything(context: AugmentedContext): void {
  const expected = [
    ...context.hits.map((h) => `hit:${h.id}`),
    ...context.graphFacts.map((f) => `graph:${f.id}`),
    ...context.episodes.map((e) => `episode:${e.id}`),
    ...context.procedures.map((p) => `procedure:${p.id}`),
    ...context.notes.map((n) => `note:${n.id}`),
  ]
  expect(context.ranked.map((r) => `${r.kind}:${r.id}`).sort()).toEqual(expected.sort())
  for (let i = 1; i < context.ranked.length; i++)
    expect(context.ranked[i - 1]!.score).toBeGreaterThanOrEqual(context.ranked[i]!.score)
}
