import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from './backends'
import { seedChunk, seedEdge, seedEvidence, seedGraph } from './graph-seed'

/**
 * The repository reads behind the memory inspector that no repository contract covers (one fact, the
 * timeline, search figures; the graph, notes and retractions pages are in theirs), run against every backend.
 */
export function describeInspectorReadsContract(backend: BackendUnderTest) {
  describe(`inspector reads contract: ${backend.label}`, () => {
    const stores = backend.use()

    it('reads one fact: the edge, its supersede chain and its evidence for and against', async () => {
      const store = await stores.open()
      const { fly, heroku, redis } = await seedGraph(store)
      expect(await store.edges.getById('w', fly)).toMatchObject({ object: 'flyio', status: 'active' })
      expect(await store.edges.getById('other', fly)).toBeNull()
      const chain = await store.edges.supersedeChain('w', heroku)
      expect([chain.replaced, chain.replacedBy.map((e) => e.id)]).toEqual([[], [fly]])
      const against = await seedChunk(store, 'w', 'later', [['maya', 'We dropped Redis.']])
      await seedEvidence(store, 'w', redis, against, { polarity: -1, observedAt: '2026-02-01T00:00:00.000Z' })
      const evidence = await store.evidence.forEdge('w', redis)
      expect(evidence.map((e) => [e.polarity, e.chunkId === against.chunkId, e.messageIds.length])).toEqual([
        [1, false, 2],
        [-1, true, 1],
      ])
      expect(await store.evidence.forEdge('other', redis)).toEqual([])
    })

    it('gives the timeline: changes per day, the latest changes and predicate counts', async () => {
      const store = await stores.open()
      await seedGraph(store)
      await seedEdge(store, 'w', { triple: ['a', 'implies', 'b'], derived: true })
      expect(await store.edges.historyByDay('w')).toEqual([
        { day: '2026-01-01', appeared: 4, superseded: 0 },
        { day: '2026-03-01', appeared: 1, superseded: 1 },
      ])
      expect((await store.edges.recentlyChanged('w', 2)).map((e) => e.object)).toEqual(['heroku', 'flyio'])
      expect(await store.edges.predicateCounts('w')).toEqual([
        { predicate: 'deploys_to', edges: 2 },
        { predicate: 'uses', edges: 2 },
        { predicate: 'depends_on', edges: 1 },
        { predicate: 'implies', edges: 1 },
      ])
    })

    it('summarises the search log and gives its figures per day', async () => {
      const store = await stores.open()
      const entry = (createdAt: string, hits: number, latencyMs: number, topScore: number | null) => ({
        workspaceId: 'w',
        surface: hits === 3 ? 'notes' : 'augment',
        query: 'q',
        candidates: 5,
        hits,
        topScore,
        latencyMs,
        createdAt,
      })
      for (const search of [
        entry('2026-01-01T09:00:00.000Z', 3, 40, 0.8),
        entry('2026-01-02T09:00:00.000Z', 0, 10, null),
        entry('2026-01-02T10:00:00.000Z', 2, 30, 0.4),
        entry('2026-01-02T11:00:00.000Z', 1, 20, 0.6),
        { ...entry('2026-01-02T12:00:00.000Z', 0, 99, null), workspaceId: 'other' },
      ]) {
        const { workspaceId, createdAt, ...logged } = search
        await store.searchLog.record(workspaceId, logged, createdAt)
      }
      expect(await store.searchLog.summary('w', { latencyWindow: 2, recentMisses: 5 })).toEqual({
        searches: 4,
        empty: 1,
        avgHits: 1.5,
        avgTopScore: expect.closeTo(0.6, 10),
        bySurface: { augment: 3, notes: 1 },
        latenciesMs: [20, 30],
        recentMisses: [{ query: 'q', surface: 'augment', at: '2026-01-02T09:00:00.000Z' }],
      })
      expect(await store.searchLog.dailyFigures('w')).toEqual([
        { day: '2026-01-01', searches: 1, empty: 0, p50Ms: 40, p95Ms: 40 },
        { day: '2026-01-02', searches: 3, empty: 1, p50Ms: 20, p95Ms: 30 },
      ])
    })
  })
}
