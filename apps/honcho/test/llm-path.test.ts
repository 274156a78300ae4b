import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Honcho } from '@honcho-ai/sdk'
import {
  extractedTriple,
  type FakeOpenAIServer,
  type FakeRequest,
  isFactExtractionRequest,
  startFakeOpenAIServer,
} from '@hymem/extraction/testing'
import { configFromEnv } from 'hymem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../src/start-server'

const isChat = (r: FakeRequest) => r.system.startsWith('You answer questions')

let fake: FakeOpenAIServer
let server: RunningServer | undefined
let root: string
beforeEach(async () => {
  fake = await startFakeOpenAIServer({ apiKey: 'test-key' })
  root = mkdtempSync(join(tmpdir(), 'hymem-honcho-llm-'))
})
afterEach(async () => {
  await server?.close()
  server = undefined
  await fake.close()
  rmSync(root, { recursive: true, force: true })
})

async function start(): Promise<{ honcho: Honcho }> {
  const { config, errors } = configFromEnv({
    HYMEM_ROOT: root,
    HYMEM_EMBEDDING_PROVIDER: 'fake',
    HYMEM_LLM_API_KEY: 'test-key',
    HYMEM_LLM_BASE_URL: fake.url,
    HYMEM_LLM_MODEL: 'fake-chat',
    HYMEM_DREAM_COOLDOWN_SECONDS: '0',
  })
  expect(errors).toEqual([])
  server = await startServer({ ...config, honcho: { ...config.honcho, port: 0 } })
  return { honcho: new Honcho({ baseURL: server.url, workspaceId: 'llm', maxRetries: 0 }) }
}

async function settled(honcho: Honcho, timeoutMs = 30_000): Promise<void> {
  const started = Date.now()
  for (;;) {
    const status = await honcho.queueStatus()
    if (status.pendingWorkUnits + status.inProgressWorkUnits === 0) return
    if (Date.now() - started > timeoutMs) throw new Error(`queue still busy: ${JSON.stringify(status)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('hymem-honcho with an LLM key (the fake OpenAI-compatible server)', { timeout: 90_000 }, () => {
  it('extracts in the dream worker and answers chat through the LLM, JSON and streaming included', async () => {
    fake.script(isFactExtractionRequest, {
      json: {
        triples: [extractedTriple('billing service', 'depends_on', 'Redis')],
        markers: [],
        entity_types: [],
      },
    })
    fake.script((r) => isChat(r) && r.json, { content: '{"database":"redis"}' })
    fake.script(isChat, { content: 'Billing depends on Redis.' })
    const { honcho } = await start()
    expect(server!.memory.runtime().dreams.mode).toBe('worker')
    const session = await honcho.session('s')
    const alice = await honcho.peer('user-alice')
    await session.addMessages([alice.message('The billing service depends on Redis for caching.')])
    await settled(honcho)
    // The worker rebuilt its LLM client from the configuration: the facts prompt reached the fake server.
    expect(fake.chatRequests.some(isFactExtractionRequest)).toBe(true)
    const facts = await honcho.conclusions.list({ size: 50 })
    expect(facts.items.map((c) => c.content)).toContain('billing_service depends on redis')

    expect(await alice.chat('What does billing depend on?')).toBe('Billing depends on Redis.')
    const prompt = fake.chatRequests.filter(isChat).at(-1)!
    expect(prompt.user).toContain('billing_service depends on redis')
    const structured = await alice.chat('Which database?', {
      responseFormat: { type: 'object', properties: { database: { type: 'string' } } },
    })
    expect(JSON.parse(String(structured))).toEqual({ database: 'redis' })
    const stream = await alice.chatStream('What does billing depend on?')
    let streamed = ''
    for await (const chunk of stream) streamed += chunk
    expect(streamed).toBe('Billing depends on Redis.')
  })

  it('keeps every message through 429s and 5xx from the LLM, and finishes the work once it answers', async () => {
    fake.fail({ kind: 'server_error' }, { times: 3, match: isFactExtractionRequest })
    fake.script(isFactExtractionRequest, {
      json: { triples: [extractedTriple('api', 'depends_on', 'Fly.io')], markers: [], entity_types: [] },
    })
    const { honcho } = await start()
    fake.fail({ kind: 'rate_limit', retryAfterSeconds: 0 }, { times: 2, match: isFactExtractionRequest })
    const session = await honcho.session('s')
    const alice = await honcho.peer('user-alice')
    await session.addMessages([alice.message('We deploy the API to Fly.io.')])
    await settled(honcho)
    const messages = await session.messages()
    expect(messages.items.map((m) => m.content)).toEqual(['We deploy the API to Fly.io.'])
    const started = Date.now()
    let contents: string[] = []
    while (Date.now() - started < 30_000) {
      await honcho.scheduleDream({ observer: 'user-alice' })
      await settled(honcho)
      contents = (await honcho.conclusions.list({ size: 50 })).items.map((c) => c.content)
      if (contents.includes('api depends on flyio')) break
    }
    expect(contents).toContain('api depends on flyio')
  })
})
