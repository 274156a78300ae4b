import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expectExtractionError } from '../../test/expect-extraction-error'
import type { ExtractionLogEvent } from '../log'
import { startFakeOpenAIServer } from '../testing/fake-server'
import type { FakeOpenAIServer } from '../testing/types'
import { createOpenAICompatibleLLM } from './openai-compatible'

let server: FakeOpenAIServer
beforeEach(async () => {
  server = await startFakeOpenAIServer()
})
afterEach(async () => {
  await server.close()
})

function llm(opts: Partial<Parameters<typeof createOpenAICompatibleLLM>[0]> = {}) {
  return createOpenAICompatibleLLM({ apiKey: 'sk-test', baseURL: server.url, model: 'fake-chat', ...opts })
}

const portless = (text: string) => text.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')

describe('createOpenAICompatibleLLM', () => {
  it('sends model, messages, temperature, max_tokens and bearer key; returns provider usage', async () => {
    server.script('hi', { content: 'hello back', usage: { prompt_tokens: 11, completion_tokens: 3 } })
    const answer = await llm().complete({ system: 'sys', user: 'hi', maxTokens: 50 })
    expect(answer).toEqual({
      text: 'hello back',
      model: 'fake-chat',
      usage: { promptTokens: 11, completionTokens: 3 },
    })
    const [req] = server.chatRequests
    expect(req?.headers.authorization).toBe('Bearer sk-test')
    expect(req?.body).toMatchObject({
      model: 'fake-chat',
      max_tokens: 50,
      temperature: 0,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
      ],
    })
    expect(req?.json).toBe(false)
  })

  it('asks for JSON mode when json is set', async () => {
    await llm().complete({ system: 's', user: 'u', json: true })
    expect(server.chatRequests[0]?.body).toMatchObject({ response_format: { type: 'json_object' } })
  })

  it('falls back to plain text once when the provider refuses JSON mode, and remembers it', async () => {
    server.fail({ kind: 'bad_request', message: "This model does not support response_format 'json_object'" })
    const events: ExtractionLogEvent[] = []
    const client = llm({ log: (e) => events.push(e) })
    const first = await client.complete({ system: 's', user: 'u', json: true })
    expect(first.text).toBe('ok')
    await client.complete({ system: 's', user: 'again', json: true })
    expect(server.chatRequests.map((r) => r.json)).toEqual([true, false, false])
    expect(events.filter((e) => e.kind === 'json_mode_fallback')).toHaveLength(1)
  })

  it('retries a 429 after the Retry-After delay, then succeeds', async () => {
    server.fail({ kind: 'rate_limit', retryAfterSeconds: 1 })
    const answer = await llm({ maxRetries: 2 }).complete({ system: 's', user: 'u' })
    expect(answer.text).toBe('ok')
    const [first, second] = server.chatRequests
    expect(server.chatRequests).toHaveLength(2)
    // The client slept at least the server-requested second between the two attempts.
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(950)
  })

  it('clamps an excessive Retry-After to maxRetryAfterMs', async () => {
    server.fail({ kind: 'rate_limit', retryAfterSeconds: 3600 })
    const answer = await llm({ maxRetries: 1, maxRetryAfterMs: 10 }).complete({ system: 's', user: 'u' })
    expect(answer.text).toBe('ok')
    expect(server.chatRequests).toHaveLength(2)
  })

  it('retries 500s with backoff and succeeds', async () => {
    server.fail({ kind: 'server_error' }, { times: 2 })
    const answer = await llm({ maxRetries: 3 }).complete({ system: 's', user: 'u' })
    expect(answer.text).toBe('ok')
    expect(server.chatRequests).toHaveLength(3)
  })

  it('gives up after maxRetries with SERVER_ERROR', async () => {
    server.fail({ kind: 'server_error', status: 503 }, { times: 5 })
    const err = await expectExtractionError(llm({ maxRetries: 1 }).complete({ system: 's', user: 'u' }))
    expect(err.code).toBe('SERVER_ERROR')
    expect(err.status).toBe(503)
    expect(server.chatRequests).toHaveLength(2)
  })

  it('reports RATE_LIMITED when 429s outlast the retries', async () => {
    server.fail({ kind: 'rate_limit' }, { times: 3 })
    const err = await expectExtractionError(llm({ maxRetries: 1 }).complete({ system: 's', user: 'u' }))
    expect(err.code).toBe('RATE_LIMITED')
  })

  it('times out a request that never answers', async () => {
    server.fail({ kind: 'timeout' })
    const err = await expectExtractionError(
      llm({ timeoutMs: 150, maxRetries: 0 }).complete({ system: 's', user: 'u' }),
    )
    expect(err.code).toBe('TIMEOUT')
    expect(portless(err.message)).toMatchInlineSnapshot(
      `"http://127.0.0.1:PORT/v1 did not answer within 150 ms (model fake-chat); retry later or raise the timeout"`,
    )
  })

  it('retries after a timeout when retries remain', async () => {
    server.fail({ kind: 'timeout' })
    const answer = await llm({ timeoutMs: 150, maxRetries: 1 }).complete({ system: 's', user: 'u' })
    expect(answer.text).toBe('ok')
  })

  it('reports malformed JSON bodies as BAD_RESPONSE', async () => {
    server.fail({ kind: 'malformed_json' })
    const err = await expectExtractionError(llm({ maxRetries: 0 }).complete({ system: 's', user: 'u' }))
    expect(err.code).toBe('BAD_RESPONSE')
  })

  it('reports an answer without choices as BAD_RESPONSE', async () => {
    server.script('u', { body: { id: 'x', choices: [] } })
    const err = await expectExtractionError(llm().complete({ system: 's', user: 'u' }))
    expect(err.code).toBe('BAD_RESPONSE')
  })

  it('says which key to check on 401', async () => {
    const strict = await startFakeOpenAIServer({ apiKey: 'right' })
    try {
      const client = createOpenAICompatibleLLM({ apiKey: 'wrong', baseURL: strict.url, model: 'fake-chat' })
      const err = await expectExtractionError(client.complete({ system: 's', user: 'u' }))
      expect(err.code).toBe('AUTH')
      expect(err.status).toBe(401)
      expect(portless(err.message)).toMatchInlineSnapshot(
        `"key rejected by http://127.0.0.1:PORT/v1 (HTTP 401): check HYMEM_LLM_API_KEY"`,
      )
      expect(strict.chatRequests).toHaveLength(1)
    } finally {
      await strict.close()
    }
  })

  it('says which model is missing on 404', async () => {
    const picky = await startFakeOpenAIServer({ models: ['deepseek-chat'] })
    try {
      const client = createOpenAICompatibleLLM({ apiKey: 'k', baseURL: picky.url, model: 'gpt-9' })
      const err = await expectExtractionError(client.complete({ system: 's', user: 'u' }))
      expect(err.code).toBe('MODEL_NOT_FOUND')
      expect(portless(err.message)).toMatchInlineSnapshot(
        `"model gpt-9 not found at http://127.0.0.1:PORT/v1 (HTTP 404: The model \`gpt-9\` does not exist): check HYMEM_LLM_MODEL, and that HYMEM_LLM_BASE_URL is the API root (often ending in /v1)"`,
      )
    } finally {
      await picky.close()
    }
  })

  it('says it cannot reach a closed port', async () => {
    const gone = await startFakeOpenAIServer()
    const url = gone.url
    await gone.close()
    const client = createOpenAICompatibleLLM({ apiKey: 'k', baseURL: url, model: 'm', maxRetries: 0 })
    const err = await expectExtractionError(client.complete({ system: 's', user: 'u' }))
    expect(err.code).toBe('UNREACHABLE')
    expect(portless(err.message)).toMatch(
      /^cannot reach http:\/\/127\.0\.0\.1:PORT\/v1 \(.*ECONNREFUSED.*\): check HYMEM_LLM_BASE_URL and your network$/,
    )
  })

  it('aborts an in-flight request through the AbortSignal', async () => {
    server.fail({ kind: 'timeout' })
    const controller = new AbortController()
    const pending = llm({ timeoutMs: 30_000 }).complete({ system: 's', user: 'u', signal: controller.signal })
    setTimeout(() => controller.abort(), 50)
    const err = await expectExtractionError(pending)
    expect(err.code).toBe('ABORTED')
  })

  it('keeps at most `concurrency` requests in flight', async () => {
    server.setLatency(60)
    const client = llm({ concurrency: 2 })
    await Promise.all(Array.from({ length: 6 }, (_, i) => client.complete({ system: 's', user: `q${i}` })))
    expect(server.stats.maxInFlight).toBe(2)
    expect(server.chatRequests).toHaveLength(6)
  })

  it('refuses an empty key up front', () => {
    expect(() => createOpenAICompatibleLLM({ apiKey: '' })).toThrowError(
      'no API key for https://api.deepseek.com: set HYMEM_LLM_API_KEY',
    )
  })

  it('logs each call with its usage', async () => {
    const events: ExtractionLogEvent[] = []
    await llm({ log: (e) => events.push(e) }).complete({ system: 'abcd', user: 'efgh' })
    expect(events).toEqual([
      expect.objectContaining({
        kind: 'llm_call',
        client: 'openai-compatible:fake-chat',
        promptTokens: 2,
        completionTokens: 1,
      }),
    ])
  })
})
