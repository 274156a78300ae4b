import { createFakeEmbeddings } from '@hymem/extraction'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  insertChunk,
  insertEdge,
  insertMessages,
  openTestStore,
  searchLogRows,
  type TestStore,
  WS,
} from '../test/harness'
import { createQueryEngine } from './engine'

describe('augment: smoke', () => {
  let t: TestStore
  beforeEach(() => {
    t = openTestStore()
  })
  afterEach(() => t.close())

  it('finds messages, chunks and graph facts with provenance', async () => {
    const ids = await insertMessages(t.store, 's1', [
      { content: 'We moved the API to Postgres last week' },
      { content: 'Atta prefers Dutch for documentation', peerId: 'atta' },
    ])
    const chunk = await insertChunk(t.store, 's1', 'We moved the API to Postgres last week', [ids[0]!])
    await insertEdge(t.store, {
      subject: 'api',
      predicate: 'uses',
      object: 'postgres',
      evidence: [{ chunkId: chunk, messageIds: [ids[0]!] }],
    })
    const engine = createQueryEngine({ store: t.store, embeddings: createFakeEmbeddings({ dimensions: 32 }) })
    const context = await engine.augment('what database does the api use?', { workspaceId: WS })
    expect(context.graphFacts[0]).toMatchObject({ subject: 'api', object: 'postgres', messageIds: [ids[0]] })
    expect(context.matchedEntities).toEqual(['api'])
    expect(context.hits.length).toBeGreaterThan(0)
    expect(context.ranked.length).toBe(
      context.hits.length + context.graphFacts.length + context.episodes.length + context.notes.length,
    )
    expect(await searchLogRows(t.store)).toHaveLength(1)
  })
})
