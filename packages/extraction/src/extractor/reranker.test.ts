import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFakeLLM } from '../llm/fake'
import { createOpenAICompatibleLLM } from '../llm/openai-compatible'
import { startFakeOpenAIServer } from '../testing/fake-server'
import type { FakeOpenAIServer } from '../testing/types'
import { createLLMReranker } from './reranker'

let server: FakeOpenAIServer
beforeEach(async () => {
  server = await startFakeOpenAIServer()
})
afterEach(async () => {
  await server.close()
})

describe('createLLMReranker', () => {
  it('scores candidates 1..5 over HTTP and reports usage', async () => {
    server.script((r) => r.system.includes('relevant'), {
      content: '{"scores":[{"id":"c1","score":5},{"id":"c2","score":0},{"id":"c9","score":4}]}',
      usage: { prompt_tokens: 120, completion_tokens: 20 },
    })
    const llm = createOpenAICompatibleLLM({ apiKey: 'k', baseURL: server.url, model: 'fake-chat' })
    const r = await createLLMReranker({ llm }).rerank('which database?', [
      { id: 'c1', text: 'We use Postgres' },
      { id: 'c2', text: 'I like cats' },
    ])
    expect([...r.scores]).toEqual([
      ['c1', 5],
      ['c2', 1],
    ])
    expect(r.usage).toEqual({ promptTokens: 120, completionTokens: 20 })
    expect(server.chatRequests[0]?.user).toContain('[id "c2"]\nI like cats')
  })

  it('makes no call for no candidates', async () => {
    const llm = createFakeLLM({ respond: () => '{}' })
    const r = await createLLMReranker({ llm }).rerank('q', [])
    expect(r.scores.size).toBe(0)
    expect(llm.calls).toBe(0)
  })
})
