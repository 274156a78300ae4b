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

const graphOnly = { limits: { hits: 0, episodes: 0, procedures: 0, notes: 0 } }
const triple = (f: GraphFact) => `${f.subject} ${f.predicate} ${f.object}`
const CONF = 0.67
const byTriple = (facts: GraphFact[], text: string) => facts.find((f) => triple(f) === text)!
/** The similarity a fact was scored with (a `semantic` reason) or bounded by (`semantic_below`). */
const similarityOf = (fact: GraphFact): number => {
  for (const reason of fact.reasons) {
    if (reason.kind === 'semantic') return reason.similarity
    if (reason.kind === 'semantic_below') return reason.ceiling
  }
  throw new Error(`${triple(fact)} has no similarity reason`)
}

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
    expect(top.reasons).toEqual([
      { kind: 'predicate', predicate: 'uses' },
      { kind: 'entity_type', entityType: 'database' },
    ])
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
    expect(plain.score).toBeLessThan(typed[typed.length - 1]!.score)
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
    expect(graphFacts[0]!.reasons).toContainEqual({ kind: 'entity_match' })
    expect(graphFacts[2]!.whyRetrieved).toEqual(['fallback:entity_anchored', 'entity_type:database'])
    // The two type-only facts tie; the direct match, of the same confidence and age, is strictly ahead.
    expect(graphFacts[1]!.score).toBe(graphFacts[2]!.score)
    expect(graphFacts[0]!.score).toBeGreaterThan(graphFacts[1]!.score)
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
    const lexical = await createQueryEngine({ store: t.store }).augment(question, {
      workspaceId: WS,
      ...graphOnly,
    })
    const answer = byTriple(graphFacts, 'postgresql replaces mysql')
    const redis = byTriple(graphFacts, 'job_queue depends_on redis')
    // The defect's shape: equal anchor weights would have put the redis edge first.
    expect(similarityOf(redis)).toBeGreaterThan(similarityOf(answer) * 1.5)
    expect(redis.reasons).toEqual([
      { kind: 'semantic', similarity: similarityOf(redis) },
      { kind: 'entity_type', entityType: 'database' },
    ])
    expect(answer.reasons).toEqual([
      { kind: 'semantic', similarity: similarityOf(answer) },
      { kind: 'predicate', predicate: 'replaces' },
      { kind: 'entity_type', entityType: 'database' },
      { kind: 'entity_match' },
    ])
    // Each score is its score without an embedder, times its similarity.
    for (const fact of [redis, answer])
      expect(fact.score / byTriple(lexical.graphFacts, triple(fact)).score).toBeCloseTo(
        similarityOf(fact),
        10,
      )
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
    const config = { graphSemanticTopK: 3 }
    const engine = createQueryEngine({ store: t.store, embeddings, config })
    const { graphFacts } = await engine.augment(question, { workspaceId: WS, ...graphOnly })
    const lexical = await createQueryEngine({ store: t.store, config }).augment(question, {
      workspaceId: WS,
      ...graphOnly,
    })
    const returned = graphFacts.filter((f) => f.reasons.some((r) => r.kind === 'semantic'))
    expect(returned.length).toBeGreaterThan(0)
    const ceiling = Math.min(...returned.map(similarityOf))
    const others = graphFacts.filter((f) => !returned.includes(f))
    expect(others.length).toBeGreaterThan(0)
    for (const fact of others) expect(fact.reasons[0]).toEqual({ kind: 'semantic_below', ceiling })
    for (const fact of others) expect(fact.whyRetrieved[0]).toBe(`semantic_below_${ceiling.toFixed(2)}`)
    // An unreturned edge scores as if it had the KNN's lowest similarity.
    for (const fact of others)
      expect(fact.score / byTriple(lexical.graphFacts, triple(fact)).score).toBeCloseTo(ceiling, 10)
    const top = graphFacts[0]!
    expect(triple(top)).toBe('team uses postgresql')
    expect(top.whyRetrieved.slice(1)).toEqual(['predicate:uses', 'entity_type:database'])
  })
})
