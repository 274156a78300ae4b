import { join } from 'node:path'
import { openStore } from '@hymem/core-store'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { daysAgo, insertEdge, NOW, openTestStore, type TestStore, WS } from '../test/harness'
import { createQueryEngine } from './engine'
import type { QueryLogEvent } from './types'

const graphOnly = { limits: { hits: 0, episodes: 0, procedures: 0, notes: 0 } }

describe('token-overlap index cache', () => {
  let t: TestStore
  beforeEach(async () => {
    t = openTestStore()
    await insertEdge(t.store, { subject: 'atta_van_westreenen', predicate: 'part_of', object: 'medflow' })
    await insertEdge(t.store, { subject: 'atta', predicate: 'uses', object: 'vim' })
  })
  afterEach(() => t.close())

  it('is built once per workspace, reused, and rebuilt after invalidateQueryCaches()', async () => {
    const events: QueryLogEvent[] = []
    const engine = createQueryEngine({ store: t.store, log: (e) => events.push(e) })
    const built = () => events.filter((e) => e.kind === 'token-index-built')
    const ask = () => engine.augment('Atta van Westreenen', { workspaceId: WS, ...graphOnly })

    const first = await ask()
    expect(first.graphFacts.map((f) => f.object).sort()).toEqual(['medflow', 'vim'])
    expect(built()).toHaveLength(1)

    // A sibling canonical written behind the engine's back stays invisible while the index is cached...
    await insertEdge(t.store, { subject: 'atta_projects', predicate: 'contains', object: 'dashboard' })
    const cached = await ask()
    expect(cached.graphFacts.some((f) => f.subject === 'atta_projects')).toBe(false)
    expect(built()).toHaveLength(1)

    // ...until the caches are invalidated (what the facade does after dream, merge and retract).
    engine.invalidateQueryCaches()
    const fresh = await ask()
    expect(fresh.graphFacts.find((f) => f.subject === 'atta_projects')?.whyRetrieved).toContain(
      'overlap_via:atta',
    )
    expect(built()).toHaveLength(2)
  })

  it('invalidates one workspace without touching another', async () => {
    await insertEdge(t.store, { subject: 'bob_smith', predicate: 'uses', object: 'emacs', workspaceId: 'w2' })
    const events: QueryLogEvent[] = []
    const engine = createQueryEngine({ store: t.store, log: (e) => events.push(e) })
    await engine.augment('Atta van Westreenen', { workspaceId: WS, ...graphOnly })
    await engine.augment('Bob Smith', { workspaceId: 'w2', ...graphOnly })
    engine.invalidateQueryCaches('w2')
    await engine.augment('Atta van Westreenen', { workspaceId: WS, ...graphOnly })
    await engine.augment('Bob Smith', { workspaceId: 'w2', ...graphOnly })
    const built = events.flatMap((e) => (e.kind === 'token-index-built' ? [e.workspaceId] : []))
    expect(built).toEqual([WS, 'w2', 'w2'])
  })

  it('is not built for queries without a multi-segment entity', async () => {
    const events: QueryLogEvent[] = []
    const engine = createQueryEngine({ store: t.store, log: (e) => events.push(e) })
    await engine.augment('atta', { workspaceId: WS, ...graphOnly })
    expect(events.some((e) => e.kind === 'token-index-built')).toBe(false)
  })
})

describe('graph seed caches', () => {
  let t: TestStore
  beforeEach(async () => {
    t = openTestStore()
    await insertEdge(t.store, { subject: 'api', predicate: 'uses', object: 'postgres', lastSeen: daysAgo(5) })
  })
  afterEach(() => t.close())

  it('reuse the recent-edges seed until invalidated; asOf queries always read live', async () => {
    const engine = createQueryEngine({ store: t.store })
    const ask = (options = {}) => engine.augment('hello', { workspaceId: WS, ...graphOnly, ...options })
    expect((await ask()).graphFacts.map((f) => f.object)).toEqual(['postgres'])
    await insertEdge(t.store, {
      subject: 'api',
      predicate: 'deploys_to',
      object: 'fly',
      lastSeen: daysAgo(1),
    })
    expect((await ask()).graphFacts.map((f) => f.object)).toEqual(['postgres'])
    expect((await ask({ asOf: NOW })).graphFacts.map((f) => f.object)).toEqual(['fly', 'postgres'])
    engine.invalidateQueryCaches(WS)
    expect((await ask()).graphFacts.map((f) => f.object)).toEqual(['fly', 'postgres'])
  })

  it('reuse the strongest edges per routed predicate set, while entity-anchored routed edges stay live', async () => {
    const engine = createQueryEngine({ store: t.store })
    const ask = (text: string) => engine.augment(text, { workspaceId: WS, ...graphOnly })
    expect((await ask('which tools are used')).graphFacts.map((f) => f.object)).toEqual(['postgres'])
    await insertEdge(t.store, { subject: 'worker', predicate: 'uses', object: 'redis', confidence: 0.95 })
    expect((await ask('which tools are used')).graphFacts.map((f) => f.object)).toEqual(['postgres'])
    expect((await ask('which tools does the worker use')).graphFacts.map((f) => f.object)).toContain('redis')
    engine.invalidateQueryCaches()
    expect((await ask('which tools are used')).graphFacts.map((f) => f.object)).toEqual(['redis', 'postgres'])
  })
})

describe('caches shared with other processes', () => {
  let t: TestStore
  beforeEach(async () => {
    t = openTestStore()
    await insertEdge(t.store, { subject: 'api', predicate: 'uses', object: 'postgres', lastSeen: daysAgo(5) })
    await insertEdge(t.store, { subject: 'atta_van_westreenen', predicate: 'part_of', object: 'medflow' })
  })
  afterEach(() => t.close())

  it('drop what another process made stale by advancing the graph generation', async () => {
    const events: QueryLogEvent[] = []
    const engine = createQueryEngine({ store: t.store, log: (e) => events.push(e) })
    const objects = async (text: string) =>
      (await engine.augment(text, { workspaceId: WS, ...graphOnly })).graphFacts.map((f) => f.object)
    const built = () => events.filter((e) => e.kind === 'token-index-built').length
    expect(await objects('hello')).not.toContain('fly')
    expect(await objects('Atta van Westreenen')).toEqual(['medflow'])
    expect(built()).toBe(1)

    // Another process on the same file (a second connection here) writes and advances the generation.
    const other = openStore({ path: join(t.dir, 'hymem.sqlite'), clock: () => NOW })
    try {
      await insertEdge(other, { subject: 'atta_projects', predicate: 'contains', object: 'dashboard' })
      await insertEdge(other, {
        subject: 'api',
        predicate: 'deploys_to',
        object: 'fly',
        lastSeen: daysAgo(0),
      })
      await other.graphGenerations.advance(WS)
    } finally {
      await other.close()
    }
    expect(await objects('hello')).toContain('fly')
    expect(await objects('Atta van Westreenen')).toContain('dashboard')
    expect(built()).toBe(2)
    // Nothing changed since: the caches are used again.
    await objects('Atta van Westreenen')
    expect(built()).toBe(2)
  })

  it('keep one workspace cached while another workspace moves on', async () => {
    await insertEdge(t.store, { subject: 'bob_smith', predicate: 'uses', object: 'emacs', workspaceId: 'w2' })
    const events: QueryLogEvent[] = []
    const engine = createQueryEngine({ store: t.store, log: (e) => events.push(e) })
    await engine.augment('Atta van Westreenen', { workspaceId: WS, ...graphOnly })
    await engine.augment('Bob Smith', { workspaceId: 'w2', ...graphOnly })
    await t.store.graphGenerations.advance('w2')
    await engine.augment('Atta van Westreenen', { workspaceId: WS, ...graphOnly })
    await engine.augment('Bob Smith', { workspaceId: 'w2', ...graphOnly })
    const rebuilt = events.flatMap((e) => (e.kind === 'token-index-built' ? [e.workspaceId] : []))
    expect(rebuilt).toEqual([WS, 'w2', 'w2'])
  })
})

describe('createQueryEngine', () => {
  it('exposes the frozen resolved config and refuses a bad one', async () => {
    const t = openTestStore()
    try {
      const engine = createQueryEngine({ store: t.store, config: { graphTopK: 3, fusion: 'lexical-bonus' } })
      expect(engine.config.graphTopK).toBe(3)
      expect(engine.config.fusion).toBe('lexical-bonus')
      expect(Object.isFrozen(engine.config)).toBe(true)
      expect(() =>
        createQueryEngine({ store: t.store, config: { graphTopK: 0 } }),
      ).toThrowErrorMatchingInlineSnapshot(
        `[QueryError: query config graphTopK must be a positive integer, got 0]`,
      )
    } finally {
      await t.close()
    }
  })
})
