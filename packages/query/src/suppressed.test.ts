import { createFakeEmbeddings } from '@hymem/extraction'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  daysAgo,
  fixedEmbeddings,
  indexVectors,
  insertEdge,
  insertMessages,
  insertNote,
  openTestStore,
  type TestStore,
  WS,
} from '../test/harness'
import { createQueryEngine } from './engine'
import type { SuppressedItem } from './types'

const graphOnly = { limits: { hits: 0, episodes: 0, procedures: 0, notes: 0 } }
const notesOnly = { limits: { hits: 0, graph: 0, episodes: 0, procedures: 0 } }

const byReason = (items: readonly SuppressedItem[], kind: SuppressedItem['reason']['kind']) =>
  items.filter((item) => item.reason.kind === kind)

describe('suppressed: what augment considered and left out', () => {
  let t: TestStore
  beforeEach(() => {
    t = openTestStore()
  })
  afterEach(() => t.close())

  describe('facts about the message entities the validity filter hides', () => {
    let ids: { current: number; retracted: number; old: number; successor: number; ended: number }
    let evidence: number[]
    beforeEach(async () => {
      evidence = await insertMessages(t.store, 's1', [
        { content: 'the api moved from heroku to fly' },
        { content: 'we dropped mysql for the api' },
      ])
      const current = await insertEdge(t.store, { subject: 'api', predicate: 'uses', object: 'postgres' })
      const retracted = await insertEdge(t.store, {
        subject: 'api',
        predicate: 'uses',
        object: 'mysql',
        status: 'retracted',
        lastSeen: daysAgo(3),
        evidence: [{ messageIds: [evidence[1]!] }],
      })
      const successor = await insertEdge(t.store, { subject: 'api', predicate: 'runs_on', object: 'fly' })
      const old = await insertEdge(t.store, {
        subject: 'api',
        predicate: 'runs_on',
        object: 'heroku',
        status: 'stale',
        lastSeen: daysAgo(5),
        validTo: daysAgo(2),
        supersededBy: successor,
        evidence: [{ messageIds: [evidence[0]!] }],
      })
      const ended = await insertEdge(t.store, {
        subject: 'redis',
        predicate: 'part_of',
        object: 'api',
        lastSeen: daysAgo(4),
        validTo: daysAgo(3),
      })
      ids = { current, retracted, old, successor, ended }
    })

    it('reports a retracted fact', async () => {
      const { graphFacts, suppressed } = await createQueryEngine({ store: t.store }).augment(
        'what does the api use?',
        { workspaceId: WS, ...graphOnly },
      )
      expect(graphFacts.map((fact) => fact.id)).not.toContain(ids.retracted)
      expect(byReason(suppressed, 'retracted')).toEqual([
        {
          kind: 'graph',
          id: ids.retracted,
          summary: 'api uses mysql',
          reason: { kind: 'retracted' },
          whySuppressed: 'retracted',
          messageIds: [evidence[1]],
        },
      ])
    })

    it('reports a superseded fact with its successor', async () => {
      const { suppressed } = await createQueryEngine({ store: t.store }).augment('where does the api run?', {
        workspaceId: WS,
        ...graphOnly,
      })
      expect(byReason(suppressed, 'superseded')).toEqual([
        {
          kind: 'graph',
          id: ids.old,
          summary: 'api runs_on heroku',
          reason: { kind: 'superseded', by: ids.successor, at: daysAgo(2) },
          whySuppressed: `superseded_by:${ids.successor}`,
          messageIds: [evidence[0]],
        },
      ])
    })

    it('reports a fact whose validity ended with no successor as stale', async () => {
      const { suppressed } = await createQueryEngine({ store: t.store }).augment('tell me about the api', {
        workspaceId: WS,
        ...graphOnly,
      })
      expect(byReason(suppressed, 'stale')).toEqual([
        expect.objectContaining({
          kind: 'graph',
          id: ids.ended,
          summary: 'redis part_of api',
          reason: { kind: 'stale', since: daysAgo(3) },
          whySuppressed: `stale_since:${daysAgo(3).slice(0, 10)}`,
        }),
      ])
    })

    it('hides nothing the caller asked to see, and reports nothing with suppressedLimit 0', async () => {
      const engine = createQueryEngine({ store: t.store })
      const all = await engine.augment('tell me about the api', {
        workspaceId: WS,
        includeSuperseded: true,
        ...graphOnly,
      })
      expect(all.suppressed.map((item) => item.reason.kind)).toEqual(['retracted'])
      const quiet = await createQueryEngine({ store: t.store, config: { suppressedLimit: 0 } }).augment(
        'tell me about the api',
        { workspaceId: WS, ...graphOnly },
      )
      expect(quiet.suppressed).toEqual([])
    })
  })

  it('reports a fact the semantic fallback found below its similarity floor', async () => {
    // No entity and no routed predicate in the message: the graph falls back to the edge KNN.
    const embeddings = fixedEmbeddings({ 'kettle descaling': [0.1, Math.sqrt(0.99)] }, [1, 0])
    const edge = await insertEdge(t.store, {
      subject: 'kettle',
      predicate: 'needs',
      object: 'descaling',
      lastSeen: daysAgo(9),
    })
    await indexVectors(t.store, embeddings, 'edges', [{ id: edge, text: 'kettle descaling' }])
    // The recency fallback that answers instead returns only the newest edge.
    const newest = await insertEdge(t.store, { subject: 'office', predicate: 'has', object: 'plants' })
    const engine = createQueryEngine({ store: t.store, embeddings, config: { graphRecencySeed: 1 } })
    const { graphFacts, suppressed } = await engine.augment('anything new?', {
      workspaceId: WS,
      ...graphOnly,
    })
    expect(graphFacts.map((fact) => fact.id)).toEqual([newest])
    const [weak] = byReason(suppressed, 'below_similarity_floor')
    expect(weak).toMatchObject({ kind: 'graph', id: edge, summary: 'kettle needs descaling' })
    expect(weak?.reason).toEqual({
      kind: 'below_similarity_floor',
      similarity: expect.any(Number),
      floor: 0.2,
    })
    expect(weak?.whySuppressed).toBe('below_similarity_floor_0.10')
  })

  describe('notes dropped by a precision gate', () => {
    const embeddings = fixedEmbeddings(
      {
        'deploy steps': [1, 0, 0],
        'redeploying stepwise': [0.9, Math.sqrt(0.19), 0],
        'release checklist': [0.6, 0.8, 0],
        'favourite food pizza': [0.1, 0, Math.sqrt(0.99)],
      },
      [0, 0, 1],
    )
    beforeEach(async () => {
      await insertNote(t.store, {
        id: 'near',
        description: 'redeploying',
        content: 'stepwise',
        sourceIds: [7],
      })
      await insertNote(t.store, { id: 'middle', description: 'release', content: 'checklist' })
      await insertNote(t.store, { id: 'food', description: 'favourite food', content: 'pizza' })
      await indexVectors(t.store, embeddings, 'notes', [
        { id: 'near', text: 'redeploying stepwise' },
        { id: 'middle', text: 'release checklist' },
        { id: 'food', text: 'favourite food pizza' },
      ])
    })

    it('reports a vector-only note below the similarity floor', async () => {
      const engine = createQueryEngine({
        store: t.store,
        embeddings,
        config: { notesMinSimilarity: 0.4, notesRelativeCutoff: 0 },
      })
      const { notes, suppressed } = await engine.augment('deploy steps', { workspaceId: WS, ...notesOnly })
      expect(notes.map((note) => note.id)).toEqual(['near', 'middle'])
      expect(suppressed).toEqual([
        {
          kind: 'note',
          id: 'food',
          summary: 'favourite food',
          reason: { kind: 'below_similarity_floor', similarity: expect.closeTo(0.1, 5), floor: 0.4 },
          whySuppressed: 'below_similarity_floor_0.10',
          messageIds: [],
        },
      ])
    })

    it('reports a note more than the relative cut-off below the best one', async () => {
      const engine = createQueryEngine({
        store: t.store,
        embeddings,
        config: { notesMinSimilarity: 0.4, notesRelativeCutoff: 0.15 },
      })
      const { notes, suppressed } = await engine.augment('deploy steps', { workspaceId: WS, ...notesOnly })
      expect(notes.map((note) => note.id)).toEqual(['near'])
      const [cut] = byReason(suppressed, 'below_relative_cutoff')
      expect(cut).toMatchObject({ kind: 'note', id: 'middle', whySuppressed: 'below_relative_cutoff_0.60' })
      expect(cut?.reason).toEqual({
        kind: 'below_relative_cutoff',
        similarity: expect.closeTo(0.6, 5),
        best: expect.closeTo(0.9, 5),
        cutoff: 0.15,
      })
      expect(byReason(suppressed, 'below_similarity_floor').map((item) => item.id)).toEqual(['food'])
    })
  })

  it('reports the items that did not fit in the token budget, in ranked order', async () => {
    const long = `the api deploys to fly ${'with a long story about the rollout '.repeat(12)}`
    const ids = await insertMessages(t.store, 's1', [
      { peerId: 'ann', content: 'the api deploys to fly on fridays' },
      { peerId: 'bob', content: long },
      { peerId: 'ann', content: 'fly deploys of the api are quick' },
    ])
    const engine = createQueryEngine({ store: t.store, embeddings: createFakeEmbeddings({ dimensions: 16 }) })
    const full = await engine.augment('api deploys fly', { workspaceId: WS, tokens: 5000 })
    expect(full.suppressed).toEqual([])
    const tight = await engine.augment('api deploys fly', { workspaceId: WS, tokens: 60 })
    const over = byReason(tight.suppressed, 'over_token_budget')
    expect(over.map((item) => item.id)).toEqual([ids[1]])
    expect(over[0]).toMatchObject({ kind: 'hit', messageIds: [ids[1]] })
    const reason = over[0]!.reason
    expect(reason).toEqual({ kind: 'over_token_budget', tokens: expect.any(Number), budget: 60 })
    expect(reason.kind === 'over_token_budget' && reason.tokens > 60).toBe(true)
    expect(tight.context).toContain('on fridays')
    expect(tight.context).toContain('are quick')
    expect(tight.contextTokens).toBeLessThanOrEqual(60)
  })
})
