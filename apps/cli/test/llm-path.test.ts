import {
  extractedTriple,
  type FakeOpenAIServer,
  isFactExtractionRequest,
  startFakeOpenAIServer,
} from '@hymem/extraction/testing'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from './harness'
import { runCliProcess } from './spawn-cli'

// The real binary with HYMEM_LLM_API_KEY and the base URL of the fake OpenAI-compatible server.
describe('hymem with an LLM key (child process, fake OpenAI-compatible server)', { timeout: 120_000 }, () => {
  let fake: FakeOpenAIServer
  let cleanup: () => void
  let env: Record<string, string>
  beforeEach(async () => {
    fake = await startFakeOpenAIServer({ apiKey: 'test-key' })
    const made = tempDir()
    cleanup = made.cleanup
    env = {
      HOME: made.dir,
      HYMEM_ROOT: made.dir,
      HYMEM_EMBEDDING_PROVIDER: 'none',
      HYMEM_LLM_API_KEY: 'test-key',
      HYMEM_LLM_BASE_URL: fake.url,
      HYMEM_LLM_MODEL: 'fake-chat',
      NO_COLOR: '1',
    }
  })
  afterEach(async () => {
    await fake.close()
    cleanup()
  })

  const input = JSON.stringify({
    session_id: 's1',
    role: 'user',
    content: 'The billing service depends on Redis.',
  })

  it('extracts through the LLM: capture --dream writes the triples it answered', async () => {
    fake.script(isFactExtractionRequest, {
      json: {
        triples: [extractedTriple('billing service', 'depends_on', 'Redis')],
        markers: [],
        entity_types: [],
      },
    })
    const captured = await runCliProcess(['capture', '-', '--dream', '--json'], { env, input })
    expect(captured.code).toBe(0)
    expect(JSON.parse(captured.stdout)).toMatchObject({ messages: 1, dream: { status: 'ok' } })
    expect(fake.chatRequests.filter(isFactExtractionRequest)).toHaveLength(1)
    const augmented = await runCliProcess(['augment', 'what', 'does', 'billing', 'depend', 'on?', '--json'], {
      env,
    })
    const facts = JSON.parse(augmented.stdout).graphFacts as {
      subject: string
      predicate: string
      object: string
    }[]
    expect(facts.map((f) => `${f.subject} ${f.predicate} ${f.object}`)).toContain(
      'billing_service depends_on redis',
    )
  })

  it('a rejected key fails fast with one error line, before any completion is asked for', async () => {
    const wrong = { ...env, HYMEM_LLM_API_KEY: 'wrong-key' }
    const captured = await runCliProcess(['capture', '-', '--dream'], { env: wrong, input })
    expect(captured.code).toBe(1)
    const errors = captured.stderr.split('\n').filter((line) => line.startsWith('error:'))
    expect(errors).toEqual([`error: key rejected by ${fake.url}: check HYMEM_LLM_API_KEY`])
    expect(captured.stderr).not.toMatch(/\n\s+at /)
    expect(fake.chatRequests).toEqual([])
  })

  it('keeps the captured messages when the LLM fails, and the next dream finishes the work', async () => {
    fake.script(isFactExtractionRequest, { fault: { kind: 'server_error' } })
    const first = await runCliProcess(['capture', '-', '--dream', '--json'], { env, input })
    // The dream fails with one line (after the client's retries); the captured message is stored first.
    expect(first.code).toBe(1)
    expect(first.stderr.split('\n').filter((line) => line.startsWith('error:'))).toEqual([
      expect.stringMatching(
        /^error: dream failed: extract chunk 1: .* \(HTTP 500: The server had an error\)$/,
      ),
    ])
    expect(JSON.parse(first.stdout)).toMatchObject({ messages: 1, sessions: { s1: 1 } })
    fake.reset()
    fake.script(isFactExtractionRequest, {
      json: {
        triples: [extractedTriple('billing service', 'depends_on', 'Redis')],
        markers: [],
        entity_types: [],
      },
    })
    const dreamt = await runCliProcess(['dream', '--json'], { env })
    expect(dreamt.code).toBe(0)
    const augmented = await runCliProcess(['augment', 'billing', 'redis', '--json'], { env })
    const result = JSON.parse(augmented.stdout)
    expect(result.hits.map((h: { text: string }) => h.text).join('\n')).toContain('depends on Redis')
    expect((result.graphFacts as { object: string }[]).map((f) => f.object)).toContain('redis')
  })
})
