import { createFakeEmbeddings } from '@hymem/extraction'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  indexVectors,
  insertEpisode,
  insertProcedure,
  openTestStore,
  type TestStore,
  WS,
} from '../../test/harness'
import { createQueryEngine } from '../engine'

const only = (source: 'episodes' | 'procedures') => ({
  limits: { hits: 0, graph: 0, notes: 0, episodes: 0, procedures: 0, [source]: 3 },
})

describe('episodes', () => {
  let t: TestStore
  const embeddings = createFakeEmbeddings({ dimensions: 64 })
  beforeEach(async () => {
    t = openTestStore()
    await insertEpisode(t.store, {
      id: 'ep-migration',
      sessionId: 's1',
      title: 'Postgres migration',
      summary: 'Moved the orders table to postgres with zero downtime',
      outcome: 'done',
      messageIds: [3, 4],
    })
    await insertEpisode(t.store, {
      id: 'ep-lunch',
      sessionId: 's2',
      title: 'Lunch plans',
      summary: 'Talked about sushi',
    })
    await indexVectors(t.store, embeddings, 'episodes', [
      {
        id: 'ep-migration',
        text: 'Postgres migration. Moved the orders table to postgres with zero downtime',
      },
      { id: 'ep-lunch', text: 'Lunch plans. Talked about sushi' },
    ])
  })
  afterEach(() => t.close())

  it('finds episodes by keyword over title and summary', async () => {
    const { episodes } = await createQueryEngine({ store: t.store }).augment('orders downtime', {
      workspaceId: WS,
      ...only('episodes'),
    })
    expect(episodes).toEqual([
      {
        id: 'ep-migration',
        sessionId: 's1',
        title: 'Postgres migration',
        summary: 'Moved the orders table to postgres with zero downtime',
        outcome: 'done',
        score: 1 / 61,
        reasons: [{ kind: 'keyword', source: 'episodes', rank: 1 }],
        whyRetrieved: ['keyword:episodes#1'],
        messageIds: [3, 4],
      },
    ])
  })

  it('adds vector hits when an embedder is configured, fused by RRF', async () => {
    const engine = createQueryEngine({ store: t.store, embeddings })
    const { episodes } = await engine.augment('sushi lunch', { workspaceId: WS, ...only('episodes') })
    expect(episodes[0]!.id).toBe('ep-lunch')
    expect(episodes[0]!.whyRetrieved[0]).toBe('keyword:episodes#1')
    expect(episodes[0]!.whyRetrieved[1]).toMatch(/^semantic_/)
    expect(episodes[0]!.score).toBeCloseTo(2 / 61)
  })

  it('respects sessions', async () => {
    const engine = createQueryEngine({ store: t.store, embeddings })
    const { episodes } = await engine.augment('sushi lunch', {
      workspaceId: WS,
      sessionIds: ['s1'],
      ...only('episodes'),
    })
    expect(episodes.map((e) => e.id)).toEqual(['ep-migration'])
  })
})

describe('procedures', () => {
  let t: TestStore
  beforeEach(async () => {
    t = openTestStore()
    await insertProcedure(t.store, {
      id: 'proc-deploy',
      sessionId: 's1',
      name: 'Deploy to staging',
      description: 'Ship the api to the staging cluster',
      steps: [
        { order: 2, text: 'run the smoke tests', tool: 'pytest' },
        { order: 1, text: 'build the image', tool: 'docker' },
      ],
      messageIds: [9],
    })
  })
  afterEach(() => t.close())

  it('finds procedures by name, description and step text, steps in order', async () => {
    const engine = createQueryEngine({ store: t.store })
    for (const query of ['staging', 'smoke tests', 'cluster']) {
      const { procedures } = await engine.augment(query, { workspaceId: WS, ...only('procedures') })
      expect(procedures.map((p) => p.id)).toEqual(['proc-deploy'])
    }
    const { procedures } = await engine.augment('deploy staging', { workspaceId: WS, ...only('procedures') })
    expect(procedures[0]).toMatchObject({
      name: 'Deploy to staging',
      steps: [
        { order: 1, text: 'build the image', tool: 'docker' },
        { order: 2, text: 'run the smoke tests', tool: 'pytest' },
      ],
      whyRetrieved: ['keyword:procedures#1'],
      messageIds: [9],
    })
  })
})
