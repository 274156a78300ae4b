import { createLLMExtractor, createOpenAICompatibleLLM } from '@hymem/extraction'
import { extractedTriple, type FakeOpenAIServer, startFakeOpenAIServer } from '@hymem/extraction/testing'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dream } from '../src/run/dream'
import { EMPTY_FACTS, isFacts } from './fake-llm-scripts'
import { graphSnapshot, logLines, openTestStore, type TestStore, WS } from './harness'

const fact = (subject: string, predicate: string, object: string, evidence: string) =>
  extractedTriple(subject, predicate, object, { evidence })

describe('dream() with the LLM extractor on a chunk with several speakers', () => {
  let t: TestStore
  let server: FakeOpenAIServer
  beforeEach(async () => {
    t = openTestStore()
    server = await startFakeOpenAIServer()
  })
  afterEach(async () => {
    await server.close()
    await t.cleanup()
  })

  it("sends the speakers and stores each answer under the peer whose turn holds it, never the agent's", async () => {
    await t.store.peers.getOrCreate(WS, 'bob', { metadata: { name: 'Bob' } })
    await logLines(t.store, 's1', [
      { peer: 'alice', role: 'user', content: 'I prefer Neovim for editing.', at: '2026-02-20T09:00:00Z' },
      { peer: 'bob', role: 'user', content: 'I prefer VS Code for editing.', at: '2026-02-20T09:01:00Z' },
      {
        peer: 'hermes',
        role: 'assistant',
        content: 'I prefer Emacs for editing.',
        at: '2026-02-20T09:02:00Z',
      },
    ])
    // A model that calls every speaker `user`, as a careless one would.
    server.script((r) => isFacts(r) && r.user.includes('Neovim'), {
      json: {
        triples: [
          fact('user', 'prefers', 'Neovim', 'I prefer Neovim for editing.'),
          fact('user', 'prefers', 'VS Code', 'I prefer VS Code for editing.'),
          fact('user', 'prefers', 'Emacs', 'I prefer Emacs for editing.'),
        ],
        markers: [],
        entity_types: [],
      },
    })
    server.script(isFacts, { json: EMPTY_FACTS })
    server.script(() => true, { json: { episodes: [], procedures: [], summary: null } })
    const llm = createOpenAICompatibleLLM({ apiKey: 'k', baseURL: server.url, model: 'fake', maxRetries: 0 })
    const report = await dream({
      store: t.store,
      workspaceId: WS,
      extractor: createLLMExtractor({ llm }),
      markdown: t.markdown,
    })
    expect(report.chunksProcessed).toBe(1)
    const prompt = server.chatRequests.find((r) => isFacts(r))
    expect(prompt?.user).toContain('"speaker":"bob"')
    expect(prompt?.user).toContain('Bob')
    const triples = (await graphSnapshot(t.store)).map((e) => e.triple)
    expect(triples.sort()).toEqual(['alice prefers neovim', 'bob prefers vs_code'])
  })
})
