/**
 * Test helpers for every HyMem package: a real OpenAI-compatible HTTP server on loopback with scripted
 * answers, request recording, latency and fault injection. Not part of the main entry point.
 *
 * @example
 * import { startFakeOpenAIServer } from '@hymem/extraction/testing'
 * const server = await startFakeOpenAIServer()
 * server.script((r) => r.system.includes('knowledge graph'), { json: { triples: [] } })
 * // ... point createOpenAICompatibleLLM / createOpenAICompatibleEmbeddings at server.url
 * await server.close()
 * @module
 */
export type { ExtractedTripleJson } from './testing/extracted-triple'
export { EMPTY_EXTRACTION_REPLY, extractedTriple, isFactExtractionRequest } from './testing/extracted-triple'
export { startFakeOpenAIServer } from './testing/fake-server'
export { freeLoopbackPort } from './testing/free-port'
export type {
  FakeFault,
  FakeOpenAIServer,
  FakeOpenAIServerOptions,
  FakeReply,
  FakeRequest,
  FakeRequestMatcher,
} from './testing/types'
