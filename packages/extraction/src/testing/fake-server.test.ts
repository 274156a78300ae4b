import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { _hashEmbedding } from '../embedding/hash-features'
import { startFakeOpenAIServer } from './fake-server'
import type { FakeOpenAIServer } from './types'

let server: FakeOpenAIServer
beforeEach(async () => {
  server = await startFakeOpenAIServer()
})
afterEach(async () => {
  await server.close()
})

function chat(user: string, extra: Record<string, unknown> = {}, base = server.url) {
  return fetch(`${base}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
    body: JSON.stringify({
      model: 'fake-chat',
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: user },
      ],
      ...extra,
    }),
  })
}

async function content(res: Response): Promise<string> {
  const body = (await res.json()) as { choices: { message: { content: string } }[] }
  return body.choices[0]?.message.content ?? ''
}

describe('startFakeOpenAIServer', () => {
  it('listens on loopback with a /v1 base URL', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
  })

  it('answers with the default reply and records the request', async () => {
    const res = await chat('hello', { response_format: { type: 'json_object' } })
    expect(res.status).toBe(200)
    expect(await content(res)).toBe('{}')
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]).toMatchObject({
      kind: 'chat',
      system: 'sys',
      user: 'hello',
      json: true,
      model: 'fake-chat',
      seq: 0,
    })
    expect(await content(await chat('plain'))).toBe('ok')
  })

  it('matches scripts by substring, RegExp or predicate, first registered first, with times', async () => {
    server.script('deploy', 'substring', { times: 1 })
    server.script(/^deploy/, 'regexp')
    server.script((r) => r.system === 'sys', { json: { via: 'predicate' } })
    expect(await content(await chat('deploy now'))).toBe('substring')
    expect(await content(await chat('deploy again'))).toBe('regexp')
    expect(await content(await chat('other'))).toBe('{"via":"predicate"}')
  })

  it('reports scripted usage, or estimates it from text lengths', async () => {
    server.script('a', { content: 'x', usage: { prompt_tokens: 7, completion_tokens: 2 } })
    const scripted = (await (await chat('a')).json()) as { usage: unknown }
    expect(scripted.usage).toEqual({ prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 })
    const estimated = (await (await chat('bbbbbbbb')).json()) as { usage: { prompt_tokens: number } }
    expect(estimated.usage.prompt_tokens).toBe(3)
  })

  it('injects faults on the next N matching requests only', async () => {
    server.fail({ kind: 'rate_limit', retryAfterSeconds: 2 }, { times: 2, match: 'limited' })
    const first = await chat('limited one')
    expect(first.status).toBe(429)
    expect(first.headers.get('retry-after')).toBe('2')
    expect((await chat('free')).status).toBe(200)
    expect((await chat('limited two')).status).toBe(429)
    expect((await chat('limited three')).status).toBe(200)
  })

  it.each([
    [{ kind: 'server_error' as const }, 500],
    [{ kind: 'server_error' as const, status: 502 }, 502],
    [{ kind: 'unauthorized' as const }, 401],
    [{ kind: 'model_not_found' as const }, 404],
    [{ kind: 'bad_request' as const, message: 'nope' }, 400],
  ])('answers fault %j with status %i and an OpenAI error body', async (fault, status) => {
    server.fail(fault)
    const res = await chat('x')
    expect(res.status).toBe(status)
    expect(await res.json()).toMatchObject({ error: { message: expect.any(String) } })
  })

  it('sends truncated JSON for malformed_json and drops the socket for disconnect', async () => {
    server.fail({ kind: 'malformed_json' })
    const res = await chat('x')
    expect(res.status).toBe(200)
    await expect(res.json()).rejects.toThrow()
    server.fail({ kind: 'disconnect' })
    await expect(chat('y')).rejects.toThrow()
  })

  it('holds a timeout request open until close()', async () => {
    server.fail({ kind: 'timeout' })
    const pending = chat('x').catch((e: unknown) => e)
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5))
    expect(server.stats.inFlight).toBe(1)
    await server.close()
    expect(await pending).toBeInstanceOf(Error)
    server = await startFakeOpenAIServer()
  })

  it('serves deterministic embeddings as floats or base64', async () => {
    const res = await fetch(`${server.url}/embeddings`, {
      method: 'POST',
      body: JSON.stringify({ model: 'e', input: ['alpha', 'beta'], dimensions: 8 }),
    })
    const body = (await res.json()) as { data: { index: number; embedding: number[] }[] }
    expect(body.data.map((d) => d.index)).toEqual([0, 1])
    expect(body.data[0]?.embedding).toEqual(Array.from(_hashEmbedding('alpha', 8)))
    const b64 = await fetch(`${server.url}/embeddings`, {
      method: 'POST',
      body: JSON.stringify({ model: 'e', input: 'alpha', encoding_format: 'base64' }),
    })
    const encoded = ((await b64.json()) as { data: { embedding: string }[] }).data[0]?.embedding ?? ''
    const buf = Buffer.from(encoded, 'base64')
    expect(Array.from(new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4))).toEqual(
      Array.from(_hashEmbedding('alpha', 64)),
    )
    expect(server.embeddingRequests.map((r) => r.inputs)).toEqual([['alpha', 'beta'], ['alpha']])
  })

  it('lists models, 404s unknown routes and 400s bodies that are not JSON', async () => {
    const models = (await (await fetch(`${server.url}/models`)).json()) as { data: { id: string }[] }
    expect(models.data.map((m) => m.id)).toEqual(['fake-chat', 'fake-embedding'])
    expect((await fetch(`${server.url}/nope`, { method: 'POST', body: '{}' })).status).toBe(404)
    expect((await fetch(`${server.url}/chat/completions`, { method: 'POST', body: 'not json' })).status).toBe(
      400,
    )
  })

  it('enforces apiKey and models when configured', async () => {
    const strict = await startFakeOpenAIServer({ apiKey: 'secret', models: ['fake-chat'] })
    try {
      expect((await chat('x', {}, strict.url)).status).toBe(401)
      const ok = await fetch(`${strict.url}/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer secret' },
        body: JSON.stringify({ model: 'fake-chat', messages: [{ role: 'user', content: 'x' }] }),
      })
      expect(ok.status).toBe(200)
      const wrongModel = await fetch(`${strict.url}/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer secret' },
        body: JSON.stringify({ model: 'other', messages: [{ role: 'user', content: 'x' }] }),
      })
      expect(wrongModel.status).toBe(404)
    } finally {
      await strict.close()
    }
  })

  it('reset() forgets scripts, faults and requests', async () => {
    server.script('x', 'scripted')
    server.fail({ kind: 'server_error' }, { times: 3 })
    await chat('first')
    server.reset()
    expect(server.requests).toHaveLength(0)
    expect(await content(await chat('x'))).toBe('ok')
  })
})
