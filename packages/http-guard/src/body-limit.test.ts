import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestBodyLimit } from './body-limit'

const app = new Hono()
app.onError((error, c) => c.text(error.message, 413))
app.use(
  '*',
  requestBodyLimit(10, () => {
    throw new Error('too large')
  }),
)
app.post('/', async (c) => c.text(`read:${await c.req.text()}`))
app.get('/', (c) => c.text('ok'))

let server: ReturnType<typeof serve>
let base: string
beforeAll(async () => {
  base = await new Promise<string>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
      resolve(`http://127.0.0.1:${info.port}`),
    )
  })
})
afterAll(async () => {
  await new Promise<void>((resolve) => {
    if ('closeAllConnections' in server) server.closeAllConnections()
    server.close(() => resolve())
  })
})

const streamed = (text: string) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text))
      controller.close()
    },
  })

describe('requestBodyLimit', () => {
  it('judges a body with a content-length by that header over real HTTP, and still reads it', async () => {
    const small = await fetch(base, { method: 'POST', body: 'hello' })
    expect(await small.text()).toBe('read:hello')
    const big = await fetch(base, { method: 'POST', body: 'x'.repeat(11) })
    expect(big.status).toBe(413)
    expect(await big.text()).toBe('too large')
  })

  it('counts a body sent without a content-length and refuses it once it exceeds the limit', async () => {
    const init = (text: string) => ({ method: 'POST', body: streamed(text), duplex: 'half' }) as RequestInit
    expect(await (await app.request('/', init('short'))).text()).toBe('read:short')
    expect((await app.request('/', init('x'.repeat(20)))).status).toBe(413)
    expect((await fetch(base, init('x'.repeat(20)))).status).toBe(413)
  })

  it('lets bodiless GET requests through', async () => {
    expect(await (await fetch(base)).text()).toBe('ok')
  })
})
