import { addAlias } from '@hymem/core-store'
import { createRulesExtractor } from '@hymem/extraction'
import { describe, expect, it } from 'vitest'
import { retractEdge } from '../src/retract'
import type { DreamOptions } from '../src/types'
import { dreamWithRules, graphSnapshot, type Line, logLines, useTestStore, WS } from './harness'

const line = (content: string, at: string): Line => ({ peer: 'alice', role: 'user', content, at })
const filler = (at: string): Line => ({ peer: 'alice', role: 'user', content: 'ok', at })
const negationOnly = async () => ({
  triples: [{ subject: 'team', predicate: 'uses' as const, object: 'Redis', polarity: -1 as const }],
  markers: [],
  entityTypes: [],
  dropped: { triples: 0, markers: 0 },
  usage: { promptTokens: 0, completionTokens: 0 },
  llmCalls: 0,
})

describe('supersede instead of delete', () => {
  const t = useTestStore()
  const run = (extra: Partial<DreamOptions> = {}) => dreamWithRules(t, extra)

  it('closes a single-valued edge when a newer object of the same kind arrives, and keeps it as history', async () => {
    await logLines(t.store, 's1', [line('We deploy to Heroku, that is settled.', '2026-02-01T10:00:00.000Z')])
    await run()
    await logLines(t.store, 's1', [
      line('We deploy to Fly.io now, that is settled.', '2026-02-10T10:00:00.000Z'),
    ])
    const report = await run()
    expect(report.counts.edgesSuperseded).toBe(1)
    const graph = await graphSnapshot(t.store)
    expect(graph.find((e) => e.triple === 'alice deploys_to heroku')).toMatchObject({
      status: 'stale',
      validTo: '2026-02-10T10:00:00.000Z',
      supersededBy: 'alice deploys_to flyio',
      pos: 1,
    })
    expect(graph.find((e) => e.triple === 'alice deploys_to flyio')).toMatchObject({
      status: 'active',
      validTo: null,
    })
  })

  it('"switched from X to Y" supersedes the use of X by the use of Y', async () => {
    await logLines(t.store, 's1', [line('We use MySQL for the ledger.', '2026-02-01T10:00:00.000Z')])
    await run()
    await logLines(t.store, 's1', [line('We switched from MySQL to Postgres.', '2026-02-12T10:00:00.000Z')])
    await run()
    const graph = await graphSnapshot(t.store)
    expect(graph.find((e) => e.triple === 'alice uses mysql')).toMatchObject({
      status: 'stale',
      validTo: '2026-02-12T10:00:00.000Z',
      supersededBy: 'alice uses postgres',
    })
    expect(graph.find((e) => e.triple === 'postgres replaces mysql')).toMatchObject({ status: 'active' })
  })

  it('a use asserted again after the switch stands next to its replacement', async () => {
    await logLines(t.store, 's1', [line('We use MySQL for the ledger.', '2026-02-01T10:00:00.000Z')])
    await run()
    await logLines(t.store, 's1', [line('We switched from MySQL to Postgres.', '2026-02-12T10:00:00.000Z')])
    await logLines(t.store, 's1', [filler('2026-02-12T10:01:00.000Z')])
    await logLines(t.store, 's1', [line('We use MySQL for the analytics jobs.', '2026-02-20T10:00:00.000Z')])
    await logLines(t.store, 's1', [filler('2026-02-20T10:01:00.000Z')])
    await logLines(t.store, 's1', [
      line('We use Postgres for the ledger, it works well.', '2026-02-21T10:00:00.000Z'),
    ])
    await run()
    const graph = await graphSnapshot(t.store)
    expect(graph.find((e) => e.triple === 'alice uses mysql')).toMatchObject({
      status: 'active',
      validTo: null,
    })
    expect(graph.find((e) => e.triple === 'alice uses postgres')).toMatchObject({
      status: 'active',
      validTo: null,
    })
  })

  it('a negation of an unknown fact creates nothing', async () => {
    const report = await run({ extractor: { ...createRulesExtractor(), extractFacts: negationOnly } })
    expect(report.counts.negationsOfUnknownFacts ?? 0).toBe(0)
    await logLines(t.store, 's1', [
      line('We no longer use Redis anywhere at all.', '2026-02-01T10:00:00.000Z'),
    ])
    const second = await run({ extractor: { ...createRulesExtractor(), extractFacts: negationOnly } })
    expect(second.counts.negationsOfUnknownFacts).toBe(1)
    expect(await graphSnapshot(t.store)).toEqual([])
  })

  it('re-activates a superseded edge that is asserted again later', async () => {
    await logLines(t.store, 's1', [line('We deploy to Heroku, that is settled.', '2026-02-01T10:00:00.000Z')])
    await logLines(t.store, 's1', [filler('2026-02-01T10:01:00.000Z')])
    await logLines(t.store, 's1', [
      line('We deploy to Fly.io now, that is settled.', '2026-02-10T10:00:00.000Z'),
    ])
    await logLines(t.store, 's1', [filler('2026-02-10T10:01:00.000Z')])
    await logLines(t.store, 's1', [
      line('We deploy to Heroku again, that is settled.', '2026-02-20T10:00:00.000Z'),
    ])
    await run()
    const graph = await graphSnapshot(t.store)
    expect(graph.find((e) => e.triple === 'alice deploys_to heroku')).toMatchObject({
      status: 'active',
      validTo: null,
    })
    expect(graph.find((e) => e.triple === 'alice deploys_to flyio')).toMatchObject({
      status: 'stale',
      supersededBy: 'alice deploys_to heroku',
    })
  })
})

describe('co-occurrence-aware decay', () => {
  const t = useTestStore('2026-03-01T12:00:00.000Z')
  // Every message is its own chunk; plain mentions are salient by length.
  const config = { salienceLengthFallback: 20, chunkMaxChars: 80 }
  const run = (extra: Partial<DreamOptions> = {}) => dreamWithRules(t, { config, ...extra })
  const mentions = (n: number, day = 20) =>
    Array.from({ length: n }, (_, i) =>
      line(
        `Redis was slow again during run number ${i + 1}.`,
        `2026-02-${day}T10:${String(i).padStart(2, '0')}:00.000Z`,
      ),
    )

  it('counts each re-discussing chunk once, so a second cycle changes nothing', async () => {
    await logLines(t.store, 's1', [line('The api depends on redis.', '2026-01-05T10:00:00.000Z')])
    await logLines(t.store, 's2', mentions(2))
    const first = await run()
    expect(first.counts.softContradictions).toBe(2)
    const edge = (await graphSnapshot(t.store)).find((e) => e.triple === 'api depends_on redis')!
    expect(edge).toMatchObject({ pos: 1, neg: 2, confidence: 0.4, status: 'active' })
    const second = await run()
    expect(second.counts.softContradictions ?? 0).toBe(0)
    expect((await graphSnapshot(t.store)).find((e) => e.triple === 'api depends_on redis')).toEqual(edge)
  })

  it('recomputes derived edges from scratch when a premise weakens', async () => {
    await logLines(t.store, 's1', [
      line('The api uses redis. Redis depends on jemalloc.', '2026-01-05T10:00:00.000Z'),
    ])
    t.setNow('2026-01-06T00:00:00.000Z')
    await run()
    const derived = async () =>
      (await graphSnapshot(t.store)).filter((e) => e.derived).map((e) => [e.triple, e.confidence, e.evidence])
    expect(await derived()).toEqual([['api depends_on jemalloc', 0.444444, ['inference:1:-']]])
    t.setNow('2026-03-01T12:00:00.000Z')
    await logLines(t.store, 's2', [
      line('Jemalloc was upgraded again during the night.', '2026-02-20T10:00:00.000Z'),
    ])
    await run()
    // redis → jemalloc now has 1 for, 1 against: 0.5; the derived edge is the product (2/3 × 1/2).
    expect(await derived()).toEqual([['api depends_on jemalloc', 0.333333, ['inference:1:-']]])
    const ids = await t.store.edges.listDerivedIds(WS)
    await run()
    const again = await t.store.edges.listDerivedIds(WS)
    expect(again).toHaveLength(1)
    expect(again[0]).not.toBe(ids[0])
    expect(await derived()).toEqual([['api depends_on jemalloc', 0.333333, ['inference:1:-']]])
  })

  it('counts a mention under an alias', async () => {
    await logLines(t.store, 's1', [line('The api depends on postgresql.', '2026-01-05T10:00:00.000Z')])
    await addAlias(t.store, { workspaceId: WS, surface: 'pg', canonical: 'postgresql' })
    await logLines(t.store, 's2', [
      line('The pg cluster was slow again during the night.', '2026-02-20T10:00:00.000Z'),
    ])
    const report = await run()
    expect(report.counts.softContradictions).toBe(1)
  })

  it('leaves dormant topics and recently reinforced edges alone', async () => {
    await logLines(t.store, 's1', [line('The api depends on redis.', '2026-01-05T10:00:00.000Z')])
    await logLines(t.store, 's2', [
      line('Kafka was slow again during the night.', '2026-02-20T10:00:00.000Z'),
    ])
    await logLines(t.store, 's3', [line('The worker depends on redis.', '2026-02-21T10:00:00.000Z')])
    await run()
    const graph = await graphSnapshot(t.store)
    // The only recent redis chunk evidences a different edge... which counts against `api depends_on redis`
    // (it mentions redis without restating it), but never against the fresh `worker` edge.
    expect(graph.find((e) => e.triple === 'api depends_on redis')).toMatchObject({ neg: 1 })
    expect(graph.find((e) => e.triple === 'worker depends_on redis')).toMatchObject({ neg: 0 })
  })

  it('retracts below the threshold, records feedback, and blocks re-extraction', async () => {
    await logLines(t.store, 's1', [line('The api depends on redis.', '2026-01-05T10:00:00.000Z')])
    await logLines(t.store, 's2', mentions(11))
    const report = await run()
    expect(report.counts.edgesRetracted).toBe(1)
    const edge = (await graphSnapshot(t.store)).find((e) => e.triple === 'api depends_on redis')!
    expect(edge.status).toBe('retracted')
    expect(edge.confidence).toBeLessThan(0.15)
    const feedback = await t.store.feedback.recent(WS)
    expect(feedback).toMatchObject([{ subject: 'api', predicate: 'depends_on', object: 'redis' }])
    expect(feedback[0]!.chunkText).toContain('The api depends on redis.')

    await logLines(t.store, 's3', [line('The api depends on redis.', '2026-02-28T10:00:00.000Z')])
    const again = await run()
    // The rules extractor honours the negative example itself; dreaming enforces it for extractors that don't.
    expect((again.counts.triplesBlockedByFeedback ?? 0) + (again.counts.droppedTriples ?? 0)).toBe(1)
    const still = (await graphSnapshot(t.store)).find((e) => e.triple === 'api depends_on redis')!
    expect(still.status).toBe('retracted')
    expect(still.pos).toBe(1)
  })

  it('retractEdge records feedback once and derived edges resting on it vanish', async () => {
    t.setNow('2026-01-06T00:00:00.000Z')
    await logLines(t.store, 's1', [
      line('The api depends on redis. Redis depends on jemalloc.', '2026-01-05T10:00:00.000Z'),
    ])
    await run()
    expect((await graphSnapshot(t.store)).filter((e) => e.derived).map((e) => e.triple)).toEqual([
      'api depends_on jemalloc',
    ])
    const generation = await t.store.graphGenerations.current(WS)
    const first = await retractEdge(t.store, WS, {
      subject: 'Redis',
      predicate: 'depends_on',
      object: 'jemalloc',
    })
    const second = await retractEdge(t.store, WS, {
      subject: 'redis',
      predicate: 'depends_on',
      object: 'jemalloc',
    })
    expect([first.retracted, second.retracted]).toEqual([1, 0])
    // Only the retraction that changed the graph tells the query caches of other processes.
    expect(await t.store.graphGenerations.current(WS)).toBe(generation + 1)
    await run()
    expect((await graphSnapshot(t.store)).filter((e) => e.derived)).toEqual([])
    expect(await retractEdge(t.store, WS, { subject: 'x', predicate: 'uses', object: 'y' })).toEqual({
      retracted: 0,
      feedbackRecorded: false,
      found: false,
    })
    expect(await t.store.feedback.recent(WS)).toHaveLength(1)
    await expect(
      retractEdge(t.store, WS, { subject: '', predicate: 'uses', object: 'y' }),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
  })
})
