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
import type { GraphFact } from '../types'
import {
  GRAPH_SEMANTIC_FLOOR,
  GRAPH_ENTITY_MATCH_BOOST as MATCH,
  GRAPH_TYPE_EXPANSION_WEIGHT as TYPE,
} from './score'

const rec = (days: number) => Math.exp(-days / 30)
const graphOnly = { limits: { hits: 0, episodes: 0, procedures: 0, notes: 0 } }
const find = (facts: GraphFact[], s: string, p: string, o: string) =>
  facts.find((f) => f.subject === s && f.predicate === p && f.object === o)

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

  it('fallback:entity_anchored scores confidence × recency and names the matched entity', async () => {
    const engine = createQueryEngine({ store: t.store })
    const { graphFacts, matchedEntities } = await engine.augment('tell me about FastAPI', {
      workspaceId: WS,
      ...graphOnly,
    })
    expect(matchedEntities).toEqual(['fastapi'])
    const top = graphFacts[0]!
    expect(top).toMatchObject({ id: ids.fastapiPostgres, derived: false, status: 'active', validTo: null })
    expect(top.whyRetrieved).toEqual(['fallback:entity_anchored', 'recency_1d', 'entity_match'])
    expect(top.score).toBeCloseTo(0.8 * rec(1), 10)
    const redis = find(graphFacts, 'fastapi', 'connects_to', 'redis')!
    expect(redis.whyRetrieved).toEqual(['fallback:entity_anchored', 'entity_match'])
    expect(redis.score).toBeCloseTo(0.6 * rec(40), 10)
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

  it('routed path: predicate boost, entity and recency codes; routed edges of other subjects join', async () => {
    const engine = createQueryEngine({ store: t.store })
    const { graphFacts } = await engine.augment('which database does fastapi use?', {
      workspaceId: WS,
      ...graphOnly,
    })
    const top = graphFacts[0]!
    expect(top.id).toBe(ids.fastapiPostgres)
    expect(top.whyRetrieved).toEqual(['predicate:uses', 'recency_1d', 'entity_match'])
    expect(top.score).toBeCloseTo(0.8 * rec(1) * 1.5 * MATCH, 10)
    const django = find(graphFacts, 'django', 'uses', 'sqlite')!
    expect(django.whyRetrieved).toEqual(['predicate:uses'])
    expect(django.score).toBeCloseTo(0.9 * rec(10) * 1.5, 10)
    const redis = find(graphFacts, 'fastapi', 'connects_to', 'redis')!
    expect(redis.whyRetrieved).toEqual(['entity_match'])
    expect(redis.score).toBeCloseTo(0.6 * rec(40) * MATCH, 10)
    expect(graphFacts.every((f) => !f.whyRetrieved.some((w) => w.startsWith('fallback:')))).toBe(true)
  })

  it('routed path multiplies by the semantic score when the edge KNN returned the edge', async () => {
    const embeddings = createFakeEmbeddings({ dimensions: 64 })
    await indexVectors(t.store, embeddings, 'edges', [
      { id: ids.fastapiPostgres, text: 'fastapi uses postgres' },
      { id: ids.djangoUses, text: 'django uses sqlite' },
    ])
    const engine = createQueryEngine({ store: t.store, embeddings })
    const { graphFacts } = await engine.augment('what does fastapi use with postgres', {
      workspaceId: WS,
      ...graphOnly,
    })
    const top = find(graphFacts, 'fastapi', 'uses', 'postgres')!
    const semantic = Number(top.whyRetrieved[0]!.replace('semantic_', ''))
    expect(top.whyRetrieved).toEqual([
      `semantic_${semantic.toFixed(2)}`,
      'predicate:uses',
      'recency_1d',
      'entity_match',
    ])
    expect(semantic).toBeGreaterThan(0)
    expect(top.score / (0.8 * rec(1) * 1.5 * MATCH)).toBeCloseTo(semantic, 2)
    // The KNN came back short of graphSemanticTopK (only two edges have vectors): unreturned edges count as 1.
    expect(find(graphFacts, 'fastapi', 'connects_to', 'redis')!.whyRetrieved).toEqual(['entity_match'])
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
    expect(graphFacts.flatMap((f) => f.whyRetrieved).some((w) => w.startsWith('semantic_'))).toBe(false)
  })

  it('fallback:semantic scores semantic × confidence × recency when no entity matched', async () => {
    const embeddings = createFakeEmbeddings({ dimensions: 64 })
    await indexVectors(t.store, embeddings, 'edges', [
      { id: ids.fastapiPostgres, text: 'fastapi uses postgres' },
      { id: ids.retracted, text: 'fastapi uses mysql' },
    ])
    const engine = createQueryEngine({ store: t.store, embeddings })
    const { graphFacts, matchedEntities } = await engine.augment('postgresql mysql storage', {
      workspaceId: WS,
      ...graphOnly,
    })
    expect(matchedEntities).toEqual([])
    expect(graphFacts.map((f) => f.id)).toEqual([ids.fastapiPostgres])
    const [branch, code, recency] = graphFacts[0]!.whyRetrieved
    expect([branch, recency]).toEqual(['fallback:semantic', 'recency_1d'])
    const semantic = Number(code!.replace('semantic_', ''))
    expect(graphFacts[0]!.score / (0.8 * rec(1))).toBeCloseTo(semantic, 2)
  })

  it('fallback:semantic keeps no edge under the similarity floor: it falls back to recency instead', async () => {
    const embeddings = createFakeEmbeddings({ dimensions: 64 })
    await indexVectors(t.store, embeddings, 'edges', [
      { id: ids.fastapiPostgres, text: 'fastapi uses postgres' },
    ])
    const engine = createQueryEngine({ store: t.store, embeddings })
    const [query] = await embeddings.embed(['zebra watermelon poetry'])
    const [edge] = await embeddings.embed(['fastapi uses postgres'])
    let dot = 0
    for (let i = 0; i < 64; i++) dot += (query![i] ?? 0) * (edge![i] ?? 0)
    expect(dot).toBeLessThan(GRAPH_SEMANTIC_FLOOR)
    const { graphFacts } = await engine.augment('zebra watermelon poetry', { workspaceId: WS, ...graphOnly })
    expect(graphFacts.length).toBeGreaterThan(0)
    expect(graphFacts.every((f) => f.whyRetrieved[0] === 'fallback:recency')).toBe(true)
  })

  it('fallback:recency shows recent edges when nothing else fired (no embedder, no entity)', async () => {
    const engine = createQueryEngine({ store: t.store })
    const { graphFacts } = await engine.augment('hello there', { workspaceId: WS, ...graphOnly })
    expect(graphFacts).toHaveLength(8)
    expect(graphFacts.every((f) => f.whyRetrieved[0] === 'fallback:recency')).toBe(true)
    const top = graphFacts[0]!
    expect(top.id).toBe(ids.attaMedflow)
    expect(top.whyRetrieved).toEqual(['fallback:recency', 'recency_3d'])
    expect(top.score).toBeCloseTo(0.9 * rec(3), 10)
    expect(graphFacts.find((f) => f.id === ids.derived)).toMatchObject({ derived: true })
    for (let i = 1; i < graphFacts.length; i++)
      expect(graphFacts[i - 1]!.score).toBeGreaterThanOrEqual(graphFacts[i]!.score)
  })

  it('token overlap: sibling canonicals score at the overlap weight with overlap codes', async () => {
    const engine = createQueryEngine({ store: t.store })
    const { graphFacts, matchedEntities } = await engine.augment('what is Atta van Westreenen up to', {
      workspaceId: WS,
      ...graphOnly,
    })
    expect(matchedEntities).toEqual(['atta_van_westreenen'])
    const direct = find(graphFacts, 'atta_van_westreenen', 'part_of', 'medflow')!
    expect(direct.whyRetrieved).toEqual(['fallback:entity_anchored', 'recency_3d', 'entity_match'])
    const sibling = find(graphFacts, 'atta_projects', 'contains', 'dashboard')!
    expect(sibling.whyRetrieved).toEqual([
      'fallback:entity_anchored:overlap',
      'recency_2d',
      'overlap_via:atta',
    ])
    expect(sibling.score).toBeCloseTo(0.5 * 0.7 * rec(2), 10)
    expect(graphFacts.indexOf(direct)).toBeLessThan(graphFacts.indexOf(sibling))
  })

  it('type expansion: same-type entities anchor edges with an entity_type code, at the type weight', async () => {
    const engine = createQueryEngine({ store: t.store })
    const { graphFacts, matchedEntities } = await engine.augment('thoughts on uv?', {
      workspaceId: WS,
      ...graphOnly,
    })
    expect(matchedEntities).toEqual(['uv'])
    expect(find(graphFacts, 'toolkit', 'uses', 'uv')!.whyRetrieved).toEqual([
      'fallback:entity_anchored',
      'recency_1d',
      'entity_match',
    ])
    const pip = find(graphFacts, 'pip', 'depends_on', 'setuptools')!
    expect(pip.whyRetrieved).toEqual(['fallback:entity_anchored', 'entity_type:package_manager'])
    expect(pip.score).toBeCloseTo(TYPE * 0.5 * rec(30), 10)
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
