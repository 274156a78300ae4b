import { readFileSync } from 'node:fs'
import { readSection, type VectorIndexName } from '@hymem/core-store'
import {
  createLLMExtractor,
  createOpenAICompatibleEmbeddings,
  createOpenAICompatibleLLM,
  type LLMClient,
} from '@hymem/extraction'
import { type FakeOpenAIServer, startFakeOpenAIServer } from '@hymem/extraction/testing'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLLMResponseCache } from '../src/llm-cache'
import { retractEdge } from '../src/retract'
import { dream } from '../src/run/dream'
import type { DreamOptions, DreamProgressEvent } from '../src/types'
import { BILLING_TURNS, EMPTY_FACTS, isFacts, isSummary, scriptBillingModel } from './fake-llm-scripts'
import { conversation, graphSnapshot, logLines, openTestStore, type TestStore, WS } from './harness'
import { createRulesBackedLLM } from './rules-as-llm'

describe('dream() end to end against the fake OpenAI-compatible server', () => {
  let t: TestStore
  let server: FakeOpenAIServer
  beforeEach(async () => {
    t = openTestStore()
    server = await startFakeOpenAIServer({ embeddingDimensions: 16 })
  })
  afterEach(async () => {
    await server.close()
    await t.cleanup()
  })
  const llm = (model = 'fake-chat') =>
    createOpenAICompatibleLLM({ apiKey: 'k', baseURL: server.url, model, maxRetries: 0 })
  const embeddings = () =>
    createOpenAICompatibleEmbeddings({ apiKey: 'k', baseURL: server.url, model: 'fake-embed' })
  const run = (extra: Partial<DreamOptions> = {}) =>
    dream({
      store: t.store,
      workspaceId: WS,
      extractor: createLLMExtractor({ llm: llm() }),
      embeddings: embeddings(),
      markdown: t.markdown,
      ...extra,
    })

  it('writes the graph with values, USER.md, MEMORY.md, episodes, procedures, a summary and vectors', async () => {
    scriptBillingModel(server)
    await logLines(t.store, 's1', conversation('2026-02-20T09:00:00.000Z', BILLING_TURNS))
    const report = await run()
    expect(report.status).toBe('ok')
    expect(report.errors).toEqual([])
    const chunks = await t.store.chunks.listAll(WS)
    expect(chunks).toHaveLength(3)
    expect(report.llmCalls).toBe(3 + 3) // one per chunk, then episodes, procedures and summary
    expect(report.llmCalls).toBe(server.chatRequests.length)
    expect(report.promptTokens).toBeGreaterThan(0)
    expect(report.completionTokens).toBeGreaterThan(0)

    const graph = await graphSnapshot(t.store)
    expect(graph.filter((e) => !e.derived).map((e) => e.triple)).toEqual([
      'alice uses postgresql',
      'billing_service depends_on postgres',
      'billing_service requires_version python',
      'payments depends_on postgres',
      'postgres depends_on libpq',
    ])
    expect(graph.filter((e) => e.derived).map((e) => [e.triple, e.confidence])).toEqual([
      ['billing_service depends_on libpq', Math.round((2 / 3) ** 2 * 1e6) / 1e6],
      ['payments depends_on libpq', Math.round((2 / 3) ** 2 * 1e6) / 1e6],
    ])
    const versionEdge = (await t.store.edges.listAll(WS)).find((e) => e.predicate === 'requires_version')!
    const [version] = await t.store.evidence.forEdges(WS, [versionEdge.id])
    expect(version).toMatchObject({ valueText: '3.12', valueNumeric: 3.12, temporalScope: 'since March' })
    expect(version!.messageIds).toEqual([4])

    expect(await readSection(t.markdown.userMdPath, 'profile')).toBe(
      '- [preference] User prefers short answers.\n- [style] User asks for no emojis.',
    )
    expect(readFileSync(t.markdown.memoryMdPath, 'utf8')).toContain(
      'postgres is a shared dependency of: billing_service, payments',
    )
    const [episode, ...more] = await t.store.episodes.listAll(WS)
    expect(more).toEqual([])
    expect(episode!.chunkIds).toEqual(chunks.map((c) => c.id))
    expect(episode!.startedAt).toBe(chunks[0]!.occurredAt)
    const [procedure] = await t.store.procedures.listAll(WS)
    expect(procedure!.steps).toEqual([
      { order: 1, text: 'run the migrations', tool: 'psql' },
      { order: 2, text: 'tag the release', tool: 'git' },
      { order: 3, text: 'deploy the image' },
    ])
    expect((await t.store.sessions.get(WS, 's1'))?.summary).toBe(
      'The user moved the billing service to PostgreSQL and settled its release steps.',
    )
    const indexed = async (index: VectorIndexName, ids: readonly (number | string)[]) =>
      (await t.store.vectors.textHashes(index, WS, ids)).size
    const edgeIds = (await t.store.edges.listAll(WS)).map((e) => e.id)
    expect(edgeIds).toHaveLength(graph.length)
    expect(await indexed('edges', edgeIds)).toBe(graph.length)
    expect(await indexed('episodes', [episode!.id])).toBe(1)
    expect(
      await indexed(
        'chunks',
        chunks.map((c) => c.id),
      ),
    ).toBe(3)
    expect(await t.store.chunks.listUnembedded(WS)).toEqual([])
  })

  it('re-dreams without a single model or embedding call, and keeps episode ids stable', async () => {
    scriptBillingModel(server)
    await logLines(t.store, 's1', conversation('2026-02-20T09:00:00.000Z', BILLING_TURNS))
    await run()
    const requests = server.requests.length
    const episodes = (await t.store.episodes.listAll(WS)).map((e) => e.id)
    const graph = await graphSnapshot(t.store)
    const again = await run()
    expect(again.llmCalls).toBe(0)
    expect(server.requests.length).toBe(requests)
    expect(await graphSnapshot(t.store)).toEqual(graph)
    expect((await t.store.episodes.listAll(WS)).map((e) => e.id)).toEqual(episodes)
  })

  it('answers repeated prompts from the llm_cache table (a re-run after a crash costs nothing)', async () => {
    scriptBillingModel(server)
    await logLines(t.store, 's1', conversation('2026-02-20T09:00:00.000Z', BILLING_TURNS))
    const cache = createLLMResponseCache({ store: t.store })
    const first = await run({ extractor: createLLMExtractor({ llm: cache.wrap(llm()) }), llmCache: cache })
    expect(first.counts.llmCacheHits).toBe(0)
    const chats = server.chatRequests.length
    // A new prompt version reprocesses every chunk with the same prompts: all answered from the table.
    const bumped = await run({
      extractor: createLLMExtractor({ llm: cache.wrap(llm()), promptVersion: 'v-next' }),
      llmCache: cache,
    })
    expect(bumped.chunksProcessed).toBe(3)
    expect(server.chatRequests.length).toBe(chats)
    // Session artefacts are refreshed by new messages, not by a version bump: only the facts prompts ran.
    expect(bumped.counts.llmCacheHits).toBe(3)
    expect(bumped.llmCalls).toBe(0)
    expect(bumped.promptTokens).toBe(0)
  })

  it('bounds concurrent extraction calls and commits chunks in order', async () => {
    server.script(isFacts, { json: EMPTY_FACTS })
    // Counted on the client: every call the limiter lets through starts before any HTTP answer can arrive,
    // so the peak is the bound itself, with no waiting on the server side.
    let inFlight = 0
    let peak = 0
    const http = llm()
    const counted: LLMClient = {
      name: http.name,
      model: http.model,
      async complete(req) {
        if (!isFacts(req)) return http.complete(req)
        inFlight++
        peak = Math.max(peak, inFlight)
        try {
          return await http.complete(req)
        } finally {
          inFlight--
        }
      },
    }
    const turns = Array.from(
      { length: 8 },
      (_, i) => ['user', `We use tool number ${i} for the build pipeline.`] as const,
    )
    const lines = conversation(
      '2026-02-20T09:00:00.000Z',
      turns.flatMap((turn) => [turn, ['user', 'ok'] as const]),
    )
    await logLines(t.store, 's1', lines)
    const events: DreamProgressEvent[] = []
    const report = await run({
      extractor: createLLMExtractor({ llm: counted }),
      concurrency: 2,
      embeddings: undefined,
      onProgress: (e) => events.push(e),
    })
    expect(report.chunksProcessed).toBe(8)
    expect(peak).toBe(2)
    const chunkEvents = events.filter((e) => e.kind === 'chunk')
    expect(chunkEvents.map((e) => (e.kind === 'chunk' ? e.index : 0))).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(
      events.filter((e) => e.kind === 'phase-start').map((e) => (e.kind === 'phase-start' ? e.phase : '')),
    ).toEqual([
      'chunk',
      'extract',
      'sessions',
      'profile',
      'insights',
      'decay',
      'inference',
      'insights',
      'retention',
      'passages',
      'topics',
      'embed',
    ])
    expect(report.counts.embeddingsSkipped).toBe(1)
  })

  it('leaves a chunk whose extraction failed for the next cycle and reports it', async () => {
    scriptBillingModel(server)
    server.fail(
      { kind: 'server_error' },
      { times: 1, match: (r) => isFacts(r) && r.user.includes('Python 3.12') },
    )
    await logLines(t.store, 's1', conversation('2026-02-20T09:00:00.000Z', BILLING_TURNS))
    const first = await run()
    expect(first.status).toBe('ok')
    expect(first.chunksProcessed).toBe(2)
    expect(first.chunksPending).toBe(1)
    expect(first.errors).toEqual([expect.stringMatching(/^extract chunk \d+: /)])
    const second = await run()
    expect(second.chunksProcessed).toBe(1)
    expect((await graphSnapshot(t.store)).map((e) => e.triple)).toContain(
      'billing_service requires_version python',
    )
  })

  it('injects recent retractions into the facts prompt as negative examples', async () => {
    scriptBillingModel(server)
    await logLines(t.store, 's1', conversation('2026-02-20T09:00:00.000Z', BILLING_TURNS))
    await run()
    await retractEdge(t.store, WS, {
      subject: 'payments',
      predicate: 'depends_on',
      object: 'Postgres',
      reason: 'wrong',
    })
    await logLines(
      t.store,
      's1',
      conversation('2026-02-21T09:00:00.000Z', [['user', 'We use Grafana for the dashboards.']]),
    )
    const before = server.chatRequests.length
    await run()
    const facts = server.chatRequests.slice(before).filter(isFacts)
    expect(facts).toHaveLength(1)
    expect(facts[0]!.system).toContain('DO NOT extract these relationships')
    expect(facts[0]!.system).toContain(
      '{"subject":"payments","predicate":"depends_on","object":"postgres"} (wrong)',
    )
  })

  it('rejects an invalid summary, keeps the old one and does not ask again for the same messages', async () => {
    server.script(isSummary, { json: { summary: '"user: we did stuff"' } })
    server.script(() => true, { json: EMPTY_FACTS })
    await logLines(t.store, 's1', conversation('2026-02-20T09:00:00.000Z', BILLING_TURNS))
    const report = await run()
    expect(report.counts.summariesRejected).toBe(1)
    const session = await t.store.sessions.get(WS, 's1')
    expect(session?.summary).toBeNull()
    expect(session?.summaryMessageId).toBeGreaterThan(0)
    const before = server.chatRequests.length
    await run()
    expect(server.chatRequests.length).toBe(before)
  })

  it('keeps episode ids stable when a session grows', async () => {
    await logLines(t.store, 's1', conversation('2026-02-20T09:00:00.000Z', GROWING.slice(0, 6)))
    const extractor = createLLMExtractor({ llm: createRulesBackedLLM() })
    await run({ extractor, embeddings: undefined })
    const episodeChunks = async () =>
      (await t.store.episodes.listAll(WS))
        .sort((a, b) => a.startedAt.localeCompare(b.startedAt))
        .map((e) => ({ id: e.id, chunkIds: e.chunkIds }))
    const first = await episodeChunks()
    expect(first.map((e) => e.chunkIds.length)).toEqual([3])
    await logLines(t.store, 's1', conversation('2026-02-20T10:00:00.000Z', GROWING.slice(6)))
    await run({ extractor, embeddings: undefined })
    const second = await episodeChunks()
    expect(second).toHaveLength(2)
    expect(second[0]).toEqual(first[0])
  })
})

const GROWING = Array.from({ length: 6 }, (_, i) => [
  ['user', `The unit${i} depends on redis and uses kafka.`] as const,
  ['user', 'ok'] as const,
]).flat()
