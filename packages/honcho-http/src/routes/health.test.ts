import { afterEach, describe, expect, it } from 'vitest'
import { openTestServer, type TestServer } from '../../test/harness'

let t: TestServer | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

describe('GET /health', () => {
  it('answers ok, and with ?verbose the event-loop delay and where dreams run', async () => {
    t = await openTestServer()
    expect(await (await t.call('GET', '/health')).json()).toEqual({ status: 'ok' })
    const verbose = (await (await t.call('GET', '/health?verbose')).json()) as Record<string, unknown>
    expect(verbose).toMatchObject({
      status: 'ok',
      eventLoopDelay: {
        p50Ms: expect.any(Number),
        p99Ms: expect.any(Number),
        maxMs: expect.any(Number),
        windowMs: expect.any(Number),
      },
      dreams: { mode: 'process', state: 'idle', threadId: null, crashes: 0, lastCrash: null, running: [] },
    })
  })

  it('keeps the plain probe open but asks a token for ?verbose when auth is on', async () => {
    t = await openTestServer({ auth: { tokens: { 'team-token': ['team'] } } })
    expect((await t.call('GET', '/health')).status).toBe(200)
    expect((await t.call('GET', '/health?verbose=1')).status).toBe(401)
    const ok = await t.call('GET', '/health?verbose=1', undefined, { authorization: 'Bearer team-token' })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toMatchObject({ status: 'ok', dreams: { mode: 'process' } })
  })
})
