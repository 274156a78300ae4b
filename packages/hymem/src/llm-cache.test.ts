import { createFakeLLM } from '@hymem/extraction'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestMemory, type TestMemory } from '../test/harness'

/** Answers every prompt with an empty, well-formed extraction (the shape of each prompt kind). */
const quietModel = () =>
  createFakeLLM({
    respond: (req) =>
      /summar/i.test(req.system) && !/episode/i.test(req.system)
        ? 'The team discussed their database and deployment setup.'
        : JSON.stringify({ triples: [], markers: [], entity_types: [], episodes: [], procedures: [] }),
  })

describe('the LLM response cache', () => {
  let t: TestMemory | undefined
  afterEach(async () => {
    await t?.close()
  })

  it('answers a re-run of the same prompts from the database instead of the model', async () => {
    const llm = quietModel()
    t = await openTestMemory({ llm, embeddings: null })
    await t.memory.capture([
      {
        role: 'user',
        content: 'We use PostgreSQL for billing and we deploy the API to Fly.io every Friday.',
      },
      { role: 'assistant', content: 'Understood: PostgreSQL for billing, Fly.io deploys on Fridays.' },
    ])
    const first = await t.memory.dream()
    expect(first.status).toBe('ok')
    const callsAfterFirst = llm.calls
    expect(callsAfterFirst).toBeGreaterThan(0)

    // A crash after the model answered but before the chunk was marked done: the next cycle redoes it.
    await t.store.chunks.clearProcessed('default')
    const second = await t.memory.dream()
    expect(second.status).toBe('ok')
    expect(second.chunksProcessed).toBe(first.chunksProcessed)
    expect(llm.calls).toBe(callsAfterFirst)
    expect(second.counts.llmCacheHits).toBeGreaterThan(0)
  })
})
