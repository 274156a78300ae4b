import { connect, createServer, type Server, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { type LiveServer, startLiveServer } from './live'

/**
 * A TCP relay between HyMem and the PostgreSQL server that can be cut and restored, standing in for the
 * database going away (a restart, a network partition) and coming back on the same address.
 */
class Relay {
  readonly #target: { host: string; port: number }
  readonly #sockets = new Set<Socket>()
  #server: Server | null = null
  port = 0

  constructor(target: { host: string; port: number }) {
    this.#target = target
  }

  async up(): Promise<void> {
    if (this.#server) return
    const server = createServer((client) => {
      const upstream = connect(this.#target.port, this.#target.host)
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket)
        socket.on('close', () => this.#sockets.delete(socket))
        socket.on('error', () => {
          client.destroy()
          upstream.destroy()
        })
      }
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve))
    this.port = (server.address() as { port: number }).port
    this.#server = server
  }

  async down(): Promise<void> {
    const server = this.#server
    this.#server = null
    for (const socket of this.#sockets) socket.destroy()
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const serverUrl = process.env.HYMEM_TEST_DATABASE_URL!

describe('hymem-honcho while its PostgreSQL server goes away and comes back', () => {
  let relay: Relay | undefined
  let live: LiveServer | undefined
  afterEach(async () => {
    await relay?.up()
    await live?.stop()
    await relay?.down()
  })

  it('answers 503 with a one-line reason meanwhile, then serves the same data again without a restart', async () => {
    const target = new URL(serverUrl)
    relay = new Relay({ host: target.hostname, port: Number(target.port || 5432) })
    await relay.up()
    const through = new URL(serverUrl)
    through.host = `127.0.0.1:${relay.port}`
    through.searchParams.set('schema', `outage_${process.pid}_${Date.now().toString(36)}`)
    live = await startLiveServer({ memory: { database: through.toString() } })
    const post = (path: string, body: unknown) =>
      fetch(`${live!.baseURL}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const peerIds = async (response: Response) =>
      ((await response.json()) as { items: { id: string }[] }).items.map((peer) => peer.id)

    expect((await post('/v3/workspaces', { id: 'w' })).ok).toBe(true)
    expect((await post('/v3/workspaces/w/peers', { id: 'alice' })).ok).toBe(true)

    await relay.down()
    for (const request of [
      () => post('/v3/workspaces/w/peers/list', {}),
      () => post('/v3/workspaces/w/peers', { id: 'bob' }),
    ]) {
      const response = await request()
      expect(response.status).toBe(503)
      const body = (await response.json()) as { detail: string }
      expect(body.detail).toMatch(/database|PostgreSQL|server/i)
      expect(body.detail).not.toMatch(/\n\s+at /)
    }

    await relay.up()
    await expect
      .poll(async () => (await post('/v3/workspaces/w/peers/list', {})).status, { timeout: 10_000 })
      .toBe(200)
    expect(await peerIds(await post('/v3/workspaces/w/peers/list', {}))).toEqual(['alice'])
    expect((await post('/v3/workspaces/w/peers', { id: 'bob' })).ok).toBe(true)
    expect((await peerIds(await post('/v3/workspaces/w/peers/list', {}))).sort()).toEqual(['alice', 'bob'])
  })
})
