import { createFakeEmbeddings } from '@hymem/extraction'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  daysAgo,
  indexVectors,
  insertEdge,
  insertEntityType,
  openTestStore,
  type TestStore,
  WS,
} from '../../test/harness'
import { createQueryEngine } from '../engine'
import type { GraphFact } from '../types'
import { GRAPH_ENTITY_MATCH_BOOST as MATCH, GRAPH_TYPE_EXPANSION_WEIGHT as TYPE } from './score'

const rec = (days: number) => Math.exp(-days / 30)
const graphOnly = { limits: { hits: 0, episodes: 0, procedures: 0, notes: 0 } }
const triple = (f: GraphFact) => `${f.subject} ${f.predicate} ${f.object}`
const CONF = 0.67
const BASE = CONF * rec(8)

// The `hymem demo` graph: every fact from one session 8 days ago at the rule extractor's confidence, so the
// ranking below is decided by the anchors and the routed predicates alone.
const EDGES = [
  ['team', 'uses', 'fastify'],
  ['team', 'uses', 'drizzle'],
  ['team', 'uses', 'vitest'],
  ['team', 'uses', 'playwright'],
  ['team', 'uses', 'postgresql'],
  ['postgresql', 'replaces', 'mysql'],
  ['job_queue', 'depends_on', 'redis'],
  ['api', 'runs_on', 'nodejs'],
] as const

describe('graph ranker anchors: named types, entity matches and type-only matches', () => {
  let t: TestStore
  const ids = new Map<string, number>()

  beforeEach(async () => {
    t = openTestStore()
    for (const [subject, predicate, object] of EDGES) {
      ids.set(
        `${subject} ${predicate} ${object}`,
        await insertEdge(t.store, { subject, predicate, object, confidence: CONF, lastSeen: daysAgo(8) }),
      )
    }
    await insertEntityType(t.store, 'postgresql', 'database', 2)
    await insertEntityType(t.store, 'mysql', 'database', 1)
    await insertEntityType(t.store, 'redis', 'database', 1)
    await insertEntityType(t.store, 'fastify', 'framework', 1)
  })
  afterEach(() => t.close())

  it('a type named in the question anchors that type’s entities above predicate-only facts', async () => {
    const engine = createQueryEngine({ store: t.store })
    const { graphFacts, matchedEntities } = await engine.augment('What database do we use?', {
      workspaceId: WS,
      ...graphOnly,
    })
    expect(matchedEntities).toEqual([])
    const top = graphFacts[0]!
    expect(triple(top)).toBe('team uses postgresql')
    expect(top.whyRetrieved).toEqual(['predicate:uses', 'entity_type:database'])
    expect(top.score).toBeCloseTo(BASE * 1.5 * MATCH * TYPE, 10)
    const typed = graphFacts.filter((f) => f.whyRetrieved.includes('entity_type:database'))
    // The two type-only facts tie (same standing) and fall back to edge id order.
    expect(typed.map(triple)).toEqual([
      'team uses postgresql',
      'postgresql replaces mysql',
      'job_queue depends_on redis',
    ])
    expect(graphFacts.slice(0, typed.length)).toEqual(typed)
    const plain = graphFacts.find((f) => triple(f) === 'team uses fastify')!
    expect(plain.whyRetrieved).toEqual(['predicate:uses'])
    expect(plain.score).toBeCloseTo(BASE * 1.5, 10)
  })

  it('plural type words and multi-word types match too; unknown words pull in nothing', async () => {
    await insertEntityType(t.store, 'job_queue', 'background_worker', 1)
    const engine = createQueryEngine({ store: t.store })
    const plural = await engine.augment('list our databases', { workspaceId: WS, ...graphOnly })
    expect(plural.graphFacts[0]!.whyRetrieved).toEqual(['fallback:entity_anchored', 'entity_type:database'])
    expect(plural.graphFacts.every((f) => f.whyRetrieved.includes('entity_type:database'))).toBe(true)
    const multi = await engine.augment('any background workers?', { workspaceId: WS, ...graphOnly })
    expect(multi.graphFacts.map(triple)).toEqual(['job_queue depends_on redis'])
    expect(multi.graphFacts[0]!.whyRetrieved).toContain('entity_type:background_worker')
    const none = await engine.augment('any spreadsheets?', { workspaceId: WS, ...graphOnly })
    expect(none.graphFacts.every((f) => f.whyRetrieved[0] === 'fallback:recency')).toBe(true)
  })

  it('routed path: a fact about the named entity outranks facts matching only the routed predicate', async () => {
    const engine = createQueryEngine({ store: t.store })
    const { graphFacts, matchedEntities } = await engine.augment('What do we use instead of MySQL?', {
      workspaceId: WS,
      ...graphOnly,
    })
    expect(matchedEntities).toEqual(['mysql'])
    const top = graphFacts[0]!
    expect(triple(top)).toBe('postgresql replaces mysql')
    expect(top.whyRetrieved).toEqual(['predicate:replaces', 'entity_type:database', 'entity_match'])
    expect(top.score).toBeCloseTo(BASE * 1.5 * MATCH, 10)
    const predicateOnly = graphFacts.filter((f) => f.whyRetrieved.join() === 'predicate:uses')
    expect(predicateOnly.length).toBeGreaterThan(0)
    for (const fact of predicateOnly) expect(fact.score).toBeLessThan(top.score)
  })

  it('fallback path: a direct entity match outranks a type-expansion-only match of equal standing', async () => {
    const engine = createQueryEngine({ store: t.store })
    const { graphFacts } = await engine.augment('tell me about mysql', { workspaceId: WS, ...graphOnly })
    expect(graphFacts.map(triple)).toEqual([
      'postgresql replaces mysql',
      'team uses postgresql',
      'job_queue depends_on redis',
    ])
    expect(graphFacts[0]!.score).toBeCloseTo(BASE, 10)
    expect(graphFacts[2]!.whyRetrieved).toEqual(['fallback:entity_anchored', 'entity_type:database'])
    expect(graphFacts[2]!.score).toBeCloseTo(BASE * TYPE, 10)
  })

  it('with an embedder, a semantically closer type-only edge no longer beats the direct answer', async () => {
    const embeddings = createFakeEmbeddings({ dimensions: 64 })
    const question = 'Which database replaced MySQL?'
    // Short edge texts embed noisily: make the type-only edge the nearest neighbour of the question.
    await indexVectors(t.store, embeddings, 'edges', [
      { id: ids.get('job_queue depends_on redis')!, text: question },
      { id: ids.get('postgresql replaces mysql')!, text: 'postgresql replaces mysql' },
    ])
    const engine = createQueryEngine({ store: t.store, embeddings })
    const { graphFacts } = await engine.augment(question, { workspaceId: WS, ...graphOnly })
    const semanticOf = (f: GraphFact) =>
      Number(f.whyRetrieved.find((w) => w.startsWith('semantic_'))!.replace('semantic_', ''))
    const answer = graphFacts.find((f) => triple(f) === 'postgresql replaces mysql')!
    const redis = graphFacts.find((f) => triple(f) === 'job_queue depends_on redis')!
    // The defect's shape: equal anchor weights would have put the redis edge first.
    expect(semanticOf(redis)).toBeGreaterThan(semanticOf(answer) * 1.5)
    expect(redis.whyRetrieved).toEqual([`semantic_${semanticOf(redis).toFixed(2)}`, 'entity_type:database'])
    expect(redis.score / (BASE * MATCH * TYPE)).toBeCloseTo(semanticOf(redis), 2)
    expect(answer.whyRetrieved).toEqual([
      `semantic_${semanticOf(answer).toFixed(2)}`,
      'predicate:replaces',
      'entity_type:database',
      'entity_match',
    ])
    expect(answer.score / (BASE * 1.5 * MATCH)).toBeCloseTo(semanticOf(answer), 2)
    expect(triple(graphFacts[0]!)).toBe('postgresql replaces mysql')
  })

  it('routed path: an edge a full edge KNN did not return counts at the KNN’s lowest similarity, never above it', async () => {
    const embeddings = createFakeEmbeddings({ dimensions: 64 })
    const question = 'What database do we use?'
    await indexVectors(
      t.store,
      embeddings,
      'edges',
      EDGES.map(([s, p, o]) => {
        const text = `${s} ${p} ${o}`
        // The answer embeds close to the question; the other edges as their own triple text.
        const answer = [question, 'postgresql'].join(' ')
        return { id: ids.get(text)!, text: text === 'team uses postgresql' ? answer : text }
      }),
    )
    const engine = createQueryEngine({ store: t.store, embeddings, config: { graphSemanticTopK: 3 } })
    const { graphFacts } = await engine.augment(question, { workspaceId: WS, ...graphOnly })
    const returned = graphFacts.filter((f) => f.whyRetrieved.some((w) => /^semantic_\d/.test(w)))
    expect(returned.length).toBeGreaterThan(0)
    const ceiling = Math.min(...returned.map((f) => Number(f.whyRetrieved[0]!.replace('semantic_', ''))))
    const others = graphFacts.filter((f) => !returned.includes(f))
    expect(others.length).toBeGreaterThan(0)
    for (const fact of others) expect(fact.whyRetrieved[0]).toBe(`semantic_below_${ceiling.toFixed(2)}`)
    const predicateOnly = others.filter(
      (f) => f.whyRetrieved.join() === `semantic_below_${ceiling.toFixed(2)},predicate:uses`,
    )
    expect(predicateOnly.length).toBeGreaterThan(0)
    for (const fact of predicateOnly) expect(fact.score / (BASE * 1.5)).toBeCloseTo(ceiling, 2)
    const top = graphFacts[0]!
    expect(triple(top)).toBe('team uses postgresql')
    expect(top.whyRetrieved.slice(1)).toEqual(['predicate:uses', 'entity_type:database'])
  })
})
