import { type FakeOpenAIServer, startFakeOpenAIServer } from '@hymem/extraction/testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { fakeLlmConfig, tempRoot } from '../../test/harness'
import { HyMemError } from '../errors'
import { _storeOf } from '../hymem'
import type { HyMemLogEvent } from '../log'
import { probeKey } from './check-key'
import { configFromEnv } from './config-from-env'
import { createHyMemFromConfig } from './create-from-config'

const KEY = 'sk-test-good-key-0123'
let server: FakeOpenAIServer
let dir: ReturnType<typeof tempRoot>

beforeAll(async () => {
  server = await startFakeOpenAIServer({ apiKey: KEY, models: ['fake-chat', 'fake-embed'] })
})
afterAll(async () => {
  await server.close()
})
afterEach(() => {
  server.reset()
  dir?.cleanup()
})

function env(extra: Record<string, string>) {
  dir = tempRoot()
  return fakeLlmConfig(dir.root, server.url, extra)
}

describe('createHyMemFromConfig', () => {
  it('fails fast when the LLM key is rejected (401), naming the URL and the variable', async () => {
    const config = env({ HYMEM_LLM_API_KEY: 'sk-wrong' })
    const error = await createHyMemFromConfig(config).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HyMemError)
    expect((error as HyMemError).code).toBe('LLM_KEY_REJECTED')
    expect((error as HyMemError).message).toBe(`key rejected by ${server.url}: check HYMEM_LLM_API_KEY`)
    expect(server.requests.map((r) => r.kind)).toEqual(['models'])
  })

  it('names DEEPSEEK_API_KEY when the rejected key came from it', async () => {
    const config = env({ DEEPSEEK_API_KEY: 'sk-wrong' })
    await expect(createHyMemFromConfig(config)).rejects.toThrow(
      `key rejected by ${server.url}: check DEEPSEEK_API_KEY`,
    )
  })

  it('accepts a good key with one probe that spends no tokens, and extracts with the LLM', async () => {
    const events: HyMemLogEvent[] = []
    const memory = await createHyMemFromConfig(env({ HYMEM_LLM_API_KEY: KEY }), {
      log: (e) => events.push(e),
    })
    try {
      expect(memory.extractor.name).toBe('llm:fake-chat')
      expect(memory.llm?.model).toBe('fake-chat')
      expect(server.chatRequests).toHaveLength(0)
      expect(events.find((e) => e.kind === 'key-check')).toMatchObject({ outcome: 'ok', url: server.url })
    } finally {
      await memory.close()
    }
  })

  it('skips the probe when asked (offline use)', async () => {
    const memory = await createHyMemFromConfig(env({ HYMEM_LLM_API_KEY: 'sk-wrong' }), { skipKeyCheck: true })
    await memory.close()
    expect(server.requests).toHaveLength(0)
  })

  it('only warns when the endpoint cannot be reached', async () => {
    const events: HyMemLogEvent[] = []
    const config = env({ HYMEM_LLM_API_KEY: KEY, HYMEM_LLM_BASE_URL: 'http://127.0.0.1:9/v1' })
    const memory = await createHyMemFromConfig(config, { log: (e) => events.push(e) })
    await memory.close()
    expect(events.find((e) => e.kind === 'key-check')).toMatchObject({
      level: 'warn',
      outcome: 'unreachable',
    })
  })

  it('runs on the rule-based extractor without a key and says so in one notice', async () => {
    const events: HyMemLogEvent[] = []
    const memory = await createHyMemFromConfig(env({}), { log: (e) => events.push(e) })
    await memory.close()
    expect(memory.extractor.name).toBe('rules')
    expect(memory.llm).toBeNull()
    expect(memory.embeddings).toBeNull()
    expect(events.filter((e) => e.kind === 'notice')).toEqual([
      {
        kind: 'notice',
        level: 'info',
        message: 'no LLM configured (HYMEM_LLM_API_KEY): dreaming uses the rule-based extractor',
      },
    ])
  })

  it('builds openai-compatible embeddings against the configured endpoint', async () => {
    const config = env({
      HYMEM_EMBEDDING_PROVIDER: 'openai-compatible',
      HYMEM_EMBEDDING_BASE_URL: server.url,
      HYMEM_EMBEDDING_MODEL: 'fake-embed',
      HYMEM_EMBEDDING_API_KEY: KEY,
    })
    const memory = await createHyMemFromConfig(config)
    try {
      const { note } = await memory.notes.remember({
        description: 'deploy target',
        content: 'We deploy to fly.io.',
      })
      expect(memory.embeddings?.model).toBe('fake-embed')
      expect(server.embeddingRequests.length).toBeGreaterThan(0)
      const hits = await memory.notes.search('where do we deploy?', { minSimilarity: 0 })
      expect(hits.map((hit) => hit.note.id)).toContain(note.id)
    } finally {
      await memory.close()
    }
  })

  it('fails fast when a separate embedding endpoint rejects its key', async () => {
    const config = env({
      HYMEM_EMBEDDING_PROVIDER: 'openai-compatible',
      HYMEM_EMBEDDING_BASE_URL: `${server.url}/`.replace('127.0.0.1', 'localhost'),
      HYMEM_EMBEDDING_API_KEY: 'sk-wrong',
    })
    await expect(createHyMemFromConfig(config)).rejects.toMatchObject({ code: 'EMBEDDING_KEY_REJECTED' })
  })
})

describe('probeKey', () => {
  it('tells ok, rejected, unreachable and inconclusive apart without throwing', async () => {
    expect(await probeKey({ baseUrl: server.url, apiKey: KEY })).toMatchObject({ outcome: 'ok' })
    expect(await probeKey({ baseUrl: server.url, apiKey: 'nope' })).toEqual({
      outcome: 'rejected',
      detail: `${server.url}/models answered 401`,
    })
    expect((await probeKey({ baseUrl: 'http://127.0.0.1:9', apiKey: KEY })).outcome).toBe('unreachable')
    server.fail({ kind: 'server_error', status: 502 })
    expect(await probeKey({ baseUrl: server.url, apiKey: KEY })).toEqual({
      outcome: 'inconclusive',
      detail: `${server.url}/models answered 502`,
    })
  })
})

describe('embedded defaults', () => {
  it('runs with no variables at all: rules extraction and the offline local embedder', async () => {
    dir = tempRoot()
    const { config, errors } = configFromEnv({ HOME: dir.root, HYMEM_ROOT: dir.root })
    expect(errors).toEqual([])
    const memory = await createHyMemFromConfig(config)
    try {
      expect(memory.extractor.name).toBe('rules')
      expect(memory.embeddings?.name).toBe('cached:local:minilm')
      await memory.notes.remember({
        description: 'Deploy day',
        content: 'Production deploys happen on Fridays.',
      })
      await memory.notes.remember({ description: 'Lunch', content: 'The team orders pizza on Thursdays.' })
      const [best] = await memory.notes.search('when do we ship to production?', { minSimilarity: 0 })
      expect(best?.note.description).toBe('Deploy day')
      expect(best?.similarity).toBeGreaterThan(0)
      expect(await _storeOf(memory).vectors.pinned('notes')).toEqual({
        model: 'minilm-l6-v2-384',
        dimensions: 384,
      })
    } finally {
      await memory.close()
    }
  })

  it('keeps the model of the stored vectors while HYMEM_EMBEDDING_LOCAL_MODEL is unset', async () => {
    dir = tempRoot()
    const env = { HOME: dir.root, HYMEM_ROOT: dir.root }
    const made = await createHyMemFromConfig(
      configFromEnv({ ...env, HYMEM_EMBEDDING_LOCAL_MODEL: 'use-lite' }).config,
    )
    try {
      await made.notes.remember({
        description: 'Deploy day',
        content: 'Production deploys happen on Fridays.',
      })
    } finally {
      await made.close()
    }
    const reopened = await createHyMemFromConfig(configFromEnv(env).config)
    try {
      expect(reopened.embeddings?.name).toBe('cached:local:use-lite')
      const [best] = await reopened.notes.search('when do we ship to production?', { minSimilarity: 0 })
      expect(best?.note.description).toBe('Deploy day')
    } finally {
      await reopened.close()
    }
    const chosen = await createHyMemFromConfig(
      configFromEnv({ ...env, HYMEM_EMBEDDING_LOCAL_MODEL: 'minilm-int8' }).config,
    )
    try {
      expect(chosen.embeddings?.name).toBe('cached:local:minilm-int8')
    } finally {
      await chosen.close()
    }
  })

  it('uses the int8 MiniLM model with HYMEM_EMBEDDING_LOCAL_MODEL=minilm-int8', async () => {
    dir = tempRoot()
    const { config, errors } = configFromEnv({
      HOME: dir.root,
      HYMEM_ROOT: dir.root,
      HYMEM_EMBEDDING_LOCAL_MODEL: 'minilm-int8',
    })
    expect(errors).toEqual([])
    const memory = await createHyMemFromConfig(config)
    try {
      expect(memory.embeddings?.name).toBe('cached:local:minilm-int8')
      await memory.notes.remember({ description: 'Pet', content: 'Maria recently got herself a young dog.' })
      await memory.notes.remember({
        description: 'Commute',
        content: 'Our vehicle stopped working during the drive.',
      })
      const [best] = await memory.notes.search('she adopted a puppy', { minSimilarity: 0 })
      expect(best?.note.description).toBe('Pet')
      expect(await _storeOf(memory).vectors.pinned('notes')).toEqual({
        model: 'minilm-l6-v2-int8-384',
        dimensions: 384,
      })
    } finally {
      await memory.close()
    }
  })
})
