import { describe, expect, it } from 'vitest'
import { builderOf } from '../src/store/builder'
import type { BackendUnderTest } from './backends'
import { seedChunk, seedEdge, seedEvidence, seedGraph } from './graph-seed'
import { expectStoreError } from './store-harness'

const triples = (page: { edges: { subject: string; predicate: string; object: string }[] }) =>
  page.edges.map((e) => `${e.subject} ${e.predicate} ${e.object}`)

/**
 * The repository reads behind the memory inspector (graph, fact, timeline, notes, retractions, search
 * figures), run against every backend: the same calls must give the same answers on SQLite and PostgreSQL.
 */
export function describeInspectorReadsContract(backend: BackendUnderTest) {
  describe(`inspector reads contract: ${backend.label}`, () => {
    const stores = backend.use()

    it('lists the graph by confidence with filters (entity, predicate, text, session, peer, as-of)', async () => {
      const store = await stores.open()
      await seedGraph(store)
      const current = await store.edges.listForGraph('w', {})
      expect(triples(current)).toEqual([
        'api deploys_to flyio',
        'job_queue depends_on redis',
        'maya uses type_script',
      ])
      expect(current.total).toBe(3)
      const top = await store.edges.listForGraph('w', { limit: 1, includeInactive: true })
      expect([triples(top), top.total]).toEqual([['api deploys_to flyio'], 5])
      expect(triples(await store.edges.listForGraph('w', { entity: 'api', includeInactive: true }))).toEqual([
        'api deploys_to flyio',
        'api uses my_sql',
        'api deploys_to heroku',
      ])
      expect(triples(await store.edges.listForGraph('w', { predicate: 'uses' }))).toEqual([
        'maya uses type_script',
      ])
      expect(triples(await store.edges.listForGraph('w', { text: 'Type Script' }))).toEqual([
        'maya uses type_script',
      ])
      expect((await store.edges.listForGraph('w', { text: '%' })).total).toBe(0)
      expect((await store.edges.listForGraph('w', { text: '\\' })).total).toBe(0)
      expect(triples(await store.edges.listForGraph('w', { sessionId: 'release' }))).toEqual([
        'api deploys_to flyio',
      ])
      expect(triples(await store.edges.listForGraph('w', { peerId: 'maya' }))).toEqual([
        'job_queue depends_on redis',
        'maya uses type_script',
      ])
      expect(triples(await store.edges.listForGraph('w', { asOf: '2026-02-01' }))).toEqual([
        'job_queue depends_on redis',
        'api deploys_to heroku',
        'maya uses type_script',
      ])
      await expectStoreError(store.edges.listForGraph('w', { asOf: 'last week' }), 'INVALID_INPUT')
    })

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

    it('pages notes (active first, newest first) and counts them by state', async () => {
      const store = await stores.open()
      const note = (id: string, updatedAt: string, archivedAt: string | null = null) => ({
        id,
        workspace_id: 'w',
        description: `note ${id}`,
        content: `content ${id}`,
        source_ids: '["m1"]',
        created_at: updatedAt,
        updated_at: updatedAt,
        last_accessed_at: updatedAt,
        archived_at: archivedAt,
      })
      await store.workspaces.getOrCreate('w')
      await builderOf(store)
        .insertInto('notes')
        .values([
          note('old', '2026-01-01T00:00:00.000Z'),
          note('new', '2026-02-01T00:00:00.000Z'),
          note('gone', '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'),
        ])
        .execute()
      const active = await store.notes.list('w')
      expect([active.items.map((n) => n.id), active.total]).toEqual([['new', 'old'], 2])
      const all = await store.notes.list('w', { includeArchived: true, page: { size: 2, page: 2 } })
      expect([all.items.map((n) => [n.id, n.sourceIds]), all.total]).toEqual([[['gone', ['m1']]], 3])
      expect(await store.notes.countByState('w')).toEqual({ active: 2, archived: 1 })
    })

    it('lists retractions and counts them per day', async () => {
      const store = await stores.open()
      const row = (object: string, at: string) => ({
        workspace_id: 'w',
        subject: 'api',
        predicate: 'uses',
        object,
        reason: 'wrong',
        created_at: at,
      })
      await builderOf(store)
        .insertInto('extraction_feedback')
        .values([
          row('mysql', '2026-01-02T10:00:00.000Z'),
          row('java', '2026-01-02T12:00:00.000Z'),
          row('perl', '2026-01-05T09:00:00.000Z'),
          { ...row('cobol', '2026-01-06T09:00:00.000Z'), workspace_id: 'other' },
        ])
        .execute()
      expect((await store.feedback.recent('w', 2)).map((r) => r.object)).toEqual(['perl', 'java'])
      expect(await store.feedback.retractionsByDay('w')).toEqual([
        { day: '2026-01-02', retracted: 2 },
        { day: '2026-01-05', retracted: 1 },
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
