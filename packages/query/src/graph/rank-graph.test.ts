import { createFakeEmbeddings } from '@hymem/extraction'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  daysAgo,
  indexVectors,
  insertChunk,
  insertEdge,
  insertEntityType,
  insertMessages,
  openTestStore,
  type TestStore,
  WS,
} from '../../test/harness'
import { createQueryEngine } from '../engine'
import { reasonCode } from '../reasons'
import type { GraphFact } from '../types'
import { GRAPH_SEMANTIC_FLOOR } from './score'

const graphOnly = { limits: { hits: 0, episodes: 0, procedures: 0, notes: 0 } }
const find = (facts: GraphFact[], s: string, p: string, o: string) =>
  facts.find((f) => f.subject === s && f.predicate === p && f.object === o)
/** The reasons of a fact, checking on the way that its codes are derived from them. */
const reasons = (fact: GraphFact | undefined) => {
  expect(fact?.whyRetrieved).toEqual(fact?.reasons.map(reasonCode))
  return fact?.reasons
}
const anchored = { kind: 'fallback', branch: 'entity_anchored', overlapOnly: false } as const
const recent = { kind: 'fallback', branch: 'recency', overlapOnly: false } as const
const entityMatch = { kind: 'entity_match' } as const
const days = (n: number) => ({ kind: 'recency', days: n }) as const
const uses = { kind: 'predicate', predicate: 'uses' } as const

type EdgeName =
  | 'fastapiPostgres'
  | 'fastapiRedis'
  | 'retracted'
  | 'heroku'
  | 'fly'
  | 'djangoUses'
  | 'attaMedflow'
  | 'attaProjects'
  | 'derived'
  | 'projectUv'
  | 'pipSetuptools'

describe('hybrid graph ranker', () => {
  let t: TestStore
  let ids: Record<EdgeName, number>
  let messageIds: number[]

  beforeEach(async () => {
    t = openTestStore()
    const { store } = t
    messageIds = await insertMessages(store, 's1', [
      { content: 'fastapi talks to postgres' },
      { content: 'we store everything in postgres' },
      { content: 'atta works on medflow' },
    ])
    const chunk = await insertChunk(
      store,
      's1',
      'fastapi talks to postgres; we store everything in postgres',
      [messageIds[0]!, messageIds[1]!],
    )
    ids = {
      fastapiPostgres: await insertEdge(store, {
        subject: 'fastapi',
        predicate: 'uses',
        object: 'postgres',
        confidence: 0.8,
        lastSeen: daysAgo(1),
        evidence: [{ chunkId: chunk }, { messageIds: [messageIds[2]!] }],
      }),
      fastapiRedis: await insertEdge(store, {
        subject: 'fastapi',
        predicate: 'connects_to',
        object: 'redis',
        confidence: 0.6,
        lastSeen: daysAgo(40),
      }),
      retracted: await insertEdge(store, {
        subject: 'fastapi',
        predicate: 'uses',
        object: 'mysql',
        status: 'retracted',
        confidence: 0.99,
      }),
      heroku: await insertEdge(store, {
        subject: 'fastapi',
        predicate: 'deploys_to',
        object: 'heroku',
        validFrom: daysAgo(100),
        validTo: daysAgo(20),
        lastSeen: daysAgo(20),
      }),
      fly: await insertEdge(store, {
        subject: 'fastapi',
        predicate: 'deploys_to',
        object: 'fly',
        validFrom: daysAgo(20),
        lastSeen: daysAgo(5),
      }),
      djangoUses: await insertEdge(store, {
        subject: 'django',
        predicate: 'uses',
        object: 'sqlite',
        confidence: 0.9,
        lastSeen: daysAgo(10),
      }),
      attaMedflow: await insertEdge(store, {
        subject: 'atta_van_westreenen',
        predicate: 'part_of',
        object: 'medflow',
        confidence: 0.9,
        lastSeen: daysAgo(3),
      }),
      attaProjects: await insertEdge(store, {
        subject: 'atta_projects',
        predicate: 'contains',
        object: 'dashboard',
        confidence: 0.7,
        lastSeen: daysAgo(2),
      }),
      derived: await insertEdge(store, {
        subject: 'api_gateway',
        predicate: 'depends_on',
        object: 'postgres',
        derived: true,
        confidence: 0.4,
        lastSeen: daysAgo(1),
      }),
      projectUv: await insertEdge(store, {
        subject: 'toolkit',
        predicate: 'uses',
        object: 'uv',
        lastSeen: daysAgo(1),
      }),
      pipSetuptools: await insertEdge(store, {
        subject: 'pip',
        predicate: 'depends_on',
        object: 'setuptools',
        confidence: 0.5,
        lastSeen: daysAgo(30),
      }),
    }
    await insertEntityType(store, 'uv', 'package_manager', 3)
    await insertEntityType(store, 'pip', 'package_manager', 2)
    await insertEntityType(store, 'poetry', 'package_manager', 1)
  })
  afterEach(() => t.close())

  it('fallback:entity_anchored ranks edges on the matched entity by confidence and freshness', async () => {
    const engine = createQueryEngine({ store: t.store })
    const { graphFacts, matchedEntities } = await engine.augment('tell me about FastAPI', {
      workspaceId: WS,
      ...graphOnly,
    })
    expect(matchedEntities).toEqual(['fastapi'])
    expect(graphFacts.map((f) => f.id)).toEqual([ids.fastapiPostgres, ids.fly, ids.fastapiRedis])
    expect(graphFacts[0]).toMatchObject({ derived: false, status: 'active', validTo: null })
    expect(graphFacts[0]!.whyRetrieved).toEqual(['fallback:entity_anchored', 'recency_1d', 'entity_match'])
    expect(reasons(graphFacts[0])).toEqual([anchored, days(1), entityMatch])
    expect(reasons(graphFacts[1])).toEqual([anchored, days(5), entityMatch])
    // Seen 40 days ago: outside the recent window, so no recency reason.
    expect(reasons(graphFacts[2])).toEqual([anchored, entityMatch])
  })

  it('collects provenance from evidence message ids and evidence chunks', async () => {
    const engine = createQueryEngine({ store: t.store })
    const { graphFacts } = await engine.augment('fastapi', { workspaceId: WS, ...graphOnly })
    expect(find(graphFacts, 'fastapi', 'uses', 'postgres')!.messageIds).toEqual(messageIds)
    expect(find(graphFacts, 'fastapi', 'connects_to', 'redis')!.messageIds).toEqual([])
  })

  it('never returns retracted edges, and hides superseded ones unless asked', async () => {
    const engine = createQueryEngine({ store: t.store, config: { graphTopKPerEntity: 10 } })
    const current = await engine.augment('fastapi', { workspaceId: WS, ...graphOnly })
    expect(current.graphFacts.map((f) => f.object).sort()).toEqual(['fly', 'postgres', 'redis'])
    const all = await engine.augment('fastapi', { workspaceId: WS, includeSuperseded: true, ...graphOnly })
    expect(all.graphFacts.map((f) => f.object).sort()).toEqual(['fly', 'heroku', 'postgres', 'redis'])
    expect(find(all.graphFacts, 'fastapi', 'deploys_to', 'heroku')!.validTo).toBe(daysAgo(20))
  })

  it('asOf keeps edges valid at that time (valid_from ≤ t < valid_to) and measures recency from it', async () => {
    const engine = createQueryEngine({ store: t.store, config: { graphTopKPerEntity: 10 } })
    const past = await engine.augment('fastapi deploy target', {
      workspaceId: WS,
      asOf: daysAgo(50),
      ...graphOnly,
    })
    const deploys = past.graphFacts.filter((f) => f.predicate === 'deploys_to')
    expect(deploys.map((f) => f.object)).toEqual(['heroku'])
    const atBoundary = await engine.augment('fastapi', {
      workspaceId: WS,
      asOf: new Date(daysAgo(20)),
      ...graphOnly,
    })
    expect(atBoundary.graphFacts.filter((f) => f.predicate === 'deploys_to').map((f) => f.object)).toEqual([
      'fly',
    ])
    const redis = find(past.graphFacts, 'fastapi', 'connects_to', 'redis')
    expect(redis).toBeUndefined()
  })

  it('routed path: the routed predicate on the named entity first; an entity match outweighs a predicate-only match', async () => {
    const engine = createQueryEngine({ store: t.store })
    const { graphFacts } = await engine.augment('which database does fastapi use?', {
      workspaceId: WS,
      ...graphOnly,
    })
    // postgres: predicate + entity; fly: entity only; uv and django: predicate only (the fresher first); redis:
    // entity only but old and weak.
    expect(graphFacts.map((f) => f.id)).toEqual([
      ids.fastapiPostgres,
      ids.fly,
      ids.projectUv,
      ids.djangoUses,
      ids.fastapiRedis,
    ])
    expect(graphFacts[0]!.whyRetrieved).toEqual(['predicate:uses', 'recency_1d', 'entity_match'])
    expect(reasons(graphFacts[0])).toEqual([uses, days(1), entityMatch])
    expect(reasons(find(graphFacts, 'django', 'uses', 'sqlite'))).toEqual([uses])
    expect(reasons(find(graphFacts, 'fastapi', 'connects_to', 'redis'))).toEqual([entityMatch])
    expect(graphFacts.every((f) => f.reasons.every((r) => r.kind !== 'fallback'))).toBe(true)
  })

  it('routed path multiplies by the semantic score when the edge KNN returned the edge', async () => {
    const embeddings = createFakeEmbeddings({ dimensions: 64 })
    await indexVectors(t.store, embeddings, 'edges', [
      { id: ids.fastapiPostgres, text: 'fastapi uses postgres' },
      { id: ids.djangoUses, text: 'django uses sqlite' },
    ])
    const question = 'what does fastapi use with postgres'
    const { graphFacts } = await createQueryEngine({ store: t.store, embeddings }).augment(question, {
      workspaceId: WS,
      ...graphOnly,
    })
    const lexical = await createQueryEngine({ store: t.store }).augment(question, {
      workspaceId: WS,
      ...graphOnly,
    })
    const top = find(graphFacts, 'fastapi', 'uses', 'postgres')!
    const [semantic, ...rest] = reasons(top)!
    expect(semantic).toMatchObject({ kind: 'semantic' })
    expect(rest).toEqual([uses, days(1), entityMatch])
    const similarity = semantic?.kind === 'semantic' ? semantic.similarity : 0
    expect(similarity).toBeGreaterThan(0)
    expect(top.whyRetrieved[0]).toBe(`semantic_${similarity.toFixed(2)}`)
    // The same edge without an embedder scores by everything but the similarity.
    expect(top.score / find(lexical.graphFacts, 'fastapi', 'uses', 'postgres')!.score).toBeCloseTo(
      similarity,
      10,
    )
    // The KNN came back short of graphSemanticTopK (only two edges have vectors): unreturned edges count as 1.
    const redis = find(graphFacts, 'fastapi', 'connects_to', 'redis')!
    expect(reasons(redis)).toEqual([entityMatch])
    expect(redis.score).toBe(find(lexical.graphFacts, 'fastapi', 'connects_to', 'redis')!.score)
  })

  it('fallback: the edge KNN is skipped when an entity matched', async () => {
    const embeddings = createFakeEmbeddings({ dimensions: 64 })
    await indexVectors(t.store, embeddings, 'edges', [
      { id: ids.djangoUses, text: 'django sqlite about tell' },
    ])
    const engine = createQueryEngine({ store: t.store, embeddings })
    const { graphFacts } = await engine.augment('tell me about fastapi', { workspaceId: WS, ...graphOnly })
    expect(graphFacts.length).toBeGreaterThan(0)
    expect(graphFacts.every((f) => f.subject === 'fastapi')).toBe(true)
    expect(graphFacts.flatMap((f) => f.reasons).some((r) => r.kind === 'semantic')).toBe(false)
  })

  it('fallback:semantic keeps the semantically close edge and scales its recency score by the similarity', async () => {
    const embeddings = createFakeEmbeddings({ dimensions: 64 })
    await indexVectors(t.store, embeddings, 'edges', [
      { id: ids.fastapiPostgres, text: 'fastapi uses postgres' },
      { id: ids.retracted, text: 'fastapi uses mysql' },
    ])
    const question = 'postgresql mysql storage'
    const engine = createQueryEngine({ store: t.store, embeddings })
    const { graphFacts, matchedEntities } = await engine.augment(question, { workspaceId: WS, ...graphOnly })
    expect(matchedEntities).toEqual([])
    expect(graphFacts.map((f) => f.id)).toEqual([ids.fastapiPostgres])
    const [branch, semantic, recency] = reasons(graphFacts[0])!
    expect([branch, recency]).toEqual([{ kind: 'fallback', branch: 'semantic', overlapOnly: false }, days(1)])
    const similarity = semantic?.kind === 'semantic' ? semantic.similarity : 0
    expect(similarity).toBeGreaterThanOrEqual(GRAPH_SEMANTIC_FLOOR)
    // Without an embedder the same edge is a recency-fallback fact scored by confidence and recency alone.
    const plain = await createQueryEngine({ store: t.store }).augment(question, {
      workspaceId: WS,
      ...graphOnly,
    })
    const same = plain.graphFacts.find((f) => f.id === ids.fastapiPostgres)!
    expect(reasons(same)).toEqual([recent, days(1)])
    expect(graphFacts[0]!.score / same.score).toBeCloseTo(similarity, 10)
  })

  it('fallback:semantic keeps no edge under the similarity floor: it falls back to recency instead', async () => {
    const embeddings = createFakeEmbeddings({ dimensions: 64 })
    await indexVectors(t.store, embeddings, 'edges', [
      { id: ids.fastapiPostgres, text: 'fastapi uses postgres' },
    ])
    const engine = createQueryEngine({ store: t.store, embeddings })
    const [query] = await embeddings.embed(['zebra watermelon poetry'])
    const similarity = await t.store.vectors.similarities('edges', [ids.fastapiPostgres], query!, {
      workspaceId: WS,
      model: embeddings.model,
    })
    expect(similarity.get(ids.fastapiPostgres)).toBeLessThan(GRAPH_SEMANTIC_FLOOR)
    const { graphFacts } = await engine.augment('zebra watermelon poetry', { workspaceId: WS, ...graphOnly })
    expect(graphFacts.length).toBeGreaterThan(0)
    expect(
      graphFacts.every((f) => f.reasons[0]?.kind === 'fallback' && f.reasons[0].branch === 'recency'),
    ).toBe(true)
  })

  it('fallback:recency shows the freshest, most confident edges when nothing else fired', async () => {
    const engine = createQueryEngine({ store: t.store })
    const { graphFacts } = await engine.augment('hello there', { workspaceId: WS, ...graphOnly })
    // Current edges only (no retracted, no superseded), derived ones included; ties by confidence, then id.
    expect(graphFacts.map((f) => f.id)).toEqual([
      ids.attaMedflow,
      ids.fastapiPostgres,
      ids.projectUv,
      ids.fly,
      ids.attaProjects,
      ids.djangoUses,
      ids.derived,
      ids.pipSetuptools,
    ])
    expect(
      graphFacts.every((f) => f.reasons[0]?.kind === 'fallback' && f.reasons[0].branch === 'recency'),
    ).toBe(true)
    expect(reasons(graphFacts[0])).toEqual([recent, days(3)])
    expect(reasons(find(graphFacts, 'django', 'uses', 'sqlite'))).toEqual([recent])
    expect(graphFacts.find((f) => f.id === ids.derived)).toMatchObject({ derived: true })
    for (let i = 1; i < graphFacts.length; i++)
      expect(graphFacts[i - 1]!.score).toBeGreaterThanOrEqual(graphFacts[i]!.score)
  })

  it('token overlap: a sibling canonical ranks below the direct match even when fresher, with overlap reasons', async () => {
    const engine = createQueryEngine({ store: t.store })
    const { graphFacts, matchedEntities } = await engine.augment('what is Atta van Westreenen up to', {
      workspaceId: WS,
      ...graphOnly,
    })
    expect(matchedEntities).toEqual(['atta_van_westreenen'])
    expect(graphFacts.map((f) => f.id)).toEqual([ids.attaMedflow, ids.attaProjects])
    expect(reasons(graphFacts[0])).toEqual([anchored, days(3), entityMatch])
    expect(graphFacts[1]!.whyRetrieved).toEqual([
      'fallback:entity_anchored:overlap',
      'recency_2d',
      'overlap_via:atta',
    ])
    expect(reasons(graphFacts[1])).toEqual([
      { kind: 'fallback', branch: 'entity_anchored', overlapOnly: true },
      days(2),
      { kind: 'overlap_via', token: 'atta' },
    ])
  })

  it('type expansion: same-type entities anchor edges below the direct match, with an entity_type reason', async () => {
    const engine = createQueryEngine({ store: t.store })
    const { graphFacts, matchedEntities } = await engine.augment('thoughts on uv?', {
      workspaceId: WS,
      ...graphOnly,
    })
    expect(matchedEntities).toEqual(['uv'])
    expect(graphFacts.map((f) => f.id)).toEqual([ids.projectUv, ids.pipSetuptools])
    expect(reasons(graphFacts[0])).toEqual([anchored, days(1), entityMatch])
    expect(graphFacts[1]!.whyRetrieved).toEqual(['fallback:entity_anchored', 'entity_type:package_manager'])
    expect(reasons(graphFacts[1])).toEqual([anchored, { kind: 'entity_type', entityType: 'package_manager' }])
  })

  it('respects graphTopKPerEntity and the graph limit', async () => {
    const engine = createQueryEngine({ store: t.store, config: { graphTopKPerEntity: 1 } })
    const one = await engine.augment('fastapi', { workspaceId: WS, ...graphOnly })
    expect(one.graphFacts.map((f) => f.id)).toEqual([ids.fastapiPostgres])
    const limited = await engine.augment('hello', {
      workspaceId: WS,
      limits: { ...graphOnly.limits, graph: 2 },
    })
    expect(limited.graphFacts).toHaveLength(2)
    const none = await engine.augment('fastapi', {
      workspaceId: WS,
      limits: { ...graphOnly.limits, graph: 0 },
    })
    expect(none.graphFacts).toEqual([])
    expect(none.matchedEntities).toEqual([])
  })
})
