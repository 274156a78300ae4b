import {
  cachedEmbeddings,
  createFakeEmbeddings,
  createFakeLLM,
  createLLMExtractor,
  createOpenAICompatibleEmbeddings,
  createOpenAICompatibleLLM,
  createRulesExtractor,
} from '../src/index'
import { startFakeOpenAIServer } from '../src/testing'
import { describeEmbeddingClientContract } from './embedding-contract'
import { describeExtractorContract } from './extractor-contract'
import { describeLLMClientContract } from './llm-contract'
import { rulesBackedResponder } from './rules-backed-responder'

describeLLMClientContract('fake', async (respond) => ({
  client: createFakeLLM({
    respond: (r) => respond({ system: r.system, user: r.user, json: r.json === true }),
  }),
}))

describeLLMClientContract('openai-compatible against the fake server', async (respond) => {
  const server = await startFakeOpenAIServer({
    defaultReply: async (r) => respond({ system: r.system, user: r.user, json: r.json }),
  })
  return {
    client: createOpenAICompatibleLLM({
      apiKey: 'test-key',
      baseURL: server.url,
      model: 'fake-chat',
      maxRetries: 0,
    }),
    close: () => server.close(),
  }
})

describeEmbeddingClientContract('fake', async () => ({ client: createFakeEmbeddings() }))

describeEmbeddingClientContract('cached fake', async () => ({
  client: cachedEmbeddings(createFakeEmbeddings({ dimensions: 32 }), 16),
}))

describeEmbeddingClientContract('openai-compatible against the fake server', async () => {
  const server = await startFakeOpenAIServer({ embeddingDimensions: 48 })
  return {
    client: createOpenAICompatibleEmbeddings({
      apiKey: 'k',
      baseURL: server.url,
      model: 'fake-embedding',
      batchSize: 32,
    }),
    close: () => server.close(),
  }
})

describeEmbeddingClientContract('cached openai-compatible', async () => {
  const server = await startFakeOpenAIServer()
  const inner = createOpenAICompatibleEmbeddings({
    apiKey: 'k',
    baseURL: server.url,
    model: 'fake-embedding',
  })
  return { client: cachedEmbeddings(inner, 64), close: () => server.close() }
})

describeExtractorContract('rules', () => createRulesExtractor())

describeExtractorContract('llm with a fake model', () =>
  createLLMExtractor({ llm: createFakeLLM({ respond: rulesBackedResponder, model: 'rules-backed' }) }),
)

let shared: Awaited<ReturnType<typeof startFakeOpenAIServer>> | undefined
describeExtractorContract('llm over HTTP (fake server)', async () => {
  shared ??= await startFakeOpenAIServer({ defaultReply: (r) => rulesBackedResponder(r) })
  return createLLMExtractor({
    llm: createOpenAICompatibleLLM({ apiKey: 'k', baseURL: shared.url, model: 'fake-chat', maxRetries: 0 }),
  })
})
