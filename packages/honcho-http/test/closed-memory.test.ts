import { HonchoError } from '@honcho-ai/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { type LiveServer, startLiveServer } from './live'

let live: LiveServer | undefined
afterEach(async () => {
  await live?.stop()
  live = undefined
})

describe('a request after the memory is closed', () => {
  it('answers 503 with a Honcho error body over loopback HTTP, for store reads and writes alike', async () => {
    live = await startLiveServer()
    const created = await fetch(`${live.baseURL}/v3/workspaces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'w' }),
    })
    expect(created.status).toBe(201)
    await live.memory.close()

    const requests: [string, string, unknown][] = [
      ['POST', '/v3/workspaces/list', {}],
      ['POST', '/v3/workspaces', { id: 'w2' }],
      ['POST', '/v3/workspaces/w/peers', { id: 'alice' }],
    ]
    for (const [method, path, body] of requests) {
      const res = await fetch(`${live.baseURL}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      expect(res.status, path).toBe(503)
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/)
      expect(await res.json(), path).toEqual({ detail: expect.stringMatching(/is closed/) })
    }
    // Not a crash: nothing was logged as an unexpected error.
    expect(live.events.filter((event) => event.kind === 'error')).toEqual([])

    const sdkError = await live
      .client('w')
      .peer('bob')
      .then((peer) => peer.getMetadata())
      .then(
        () => null,
        (error: unknown) => error,
      )
    expect(sdkError).toBeInstanceOf(HonchoError)
    expect((sdkError as HonchoError).status).toBe(503)
  })
})
