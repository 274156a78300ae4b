import { createFakeEmbeddings } from '@hymem/extraction'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  insertChunk,
  insertEdge,
  insertMessages,
  insertNote,
  openTestStore,
  type TestStore,
  WS,
} from '../test/harness'
import { createQueryEngine } from './engine'

const FRAGMENTS = [
  '"',
  '*',
  ':',
  '(',
  ')',
  '^',
  '-',
  'NEAR',
  'AND',
  'OR',
  'NOT',
  '🙂',
  '東京',
  '\u0000',
  '\ud800',
  ' ',
  'postgres',
  'api',
  'use',
]

describe('augment never throws on arbitrary text', () => {
  let t: TestStore
  beforeAll(async () => {
    t = openTestStore()
    const ids = await insertMessages(t.store, 's1', [{ content: 'the api uses postgres' }])
    await insertChunk(t.store, 's1', 'the api uses postgres', ids)
    await insertEdge(t.store, { subject: 'api', predicate: 'uses', object: 'postgres' })
    await insertNote(t.store, { id: 'n1', description: 'postgres', content: 'notes' })
  })
  afterAll(() => t.close())

  for (const withEmbedder of [false, true]) {
    it(`${withEmbedder ? 'with' : 'without'} an embedder`, async () => {
      const engine = createQueryEngine({
        store: t.store,
        config: { searchLog: false },
        ...(withEmbedder ? { embeddings: createFakeEmbeddings({ dimensions: 16 }) } : {}),
      })
      const texts = fc.oneof(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'grapheme' }),
        fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }).map((parts) => parts.join('')),
      )
      await fc.assert(
        fc.asyncProperty(texts, async (text) => {
          const context = await engine.augment(text, { workspaceId: WS })
          expect(context.ranked).toHaveLength(
            context.hits.length +
              context.graphFacts.length +
              context.episodes.length +
              context.procedures.length +
              context.notes.length,
          )
        }),
        { numRuns: 150 },
      )
    })
  }
})
