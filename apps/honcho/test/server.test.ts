import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { type IncomingMessage, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AuthenticationError, Honcho, NotFoundError } from '@honcho-ai/sdk'
import { configFromEnv, type HyMemConfig, openHyMemStore, type RuntimeStatus } from 'hymem'
import { afterEach, describe, expect, it } from 'vitest'
import { type RunningServer, ServerConfigError, startServer } from '../src/start-server'

const roots: string[] = []
const servers: RunningServer[] = []

function testConfig(env: Record<string, string> = {}): HyMemConfig {
  const root = mkdtempSync(join(tmpdir(), 'hymem-honcho-app-'))
  roots.push(root)
  const { config, errors } = configFromEnv({ HYMEM_ROOT: root, HYMEM_EMBEDDING_PROVIDER: 'fake', ...env })
  expect(errors).toEqual([])
  return { ...config, honcho: { ...config.honcho, port: 0 } }
}

async function start(config: HyMemConfig): Promise<RunningServer> {
  const server = await startServer(config)
  servers.push(server)
  return server
}

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

const MCP_INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } },
}

describe('startServer', () => {
  it('serves /health, the Honcho routes and /mcp, and names database, extractor and embedder', async () => {
    const server = await start(testConfig())
    expect(server.startupLine).toMatch(
      /^hymem-honcho listening on http:\/\/127\.0\.0\.1:\d+ · backend sqlite .*hymem\.sqlite · extractor rules · embedder fake\S* · auth off \(loopback only\) · mcp \/mcp · inspector \/inspect · dreams in (a worker thread|process)$/,
    )
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok' })
    const honcho = new Honcho({ baseURL: server.url, workspaceId: 'app', maxRetries: 0 })
    const session = await honcho.session('s')
    const [message] = await session.addMessages([
      (await honcho.peer('alice')).message('I use Vim every day.'),
    ])
    expect(message?.content).toBe('I use Vim every day.')
    const mcp = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(MCP_INIT),
    })
    expect(mcp.status).toBe(200)
    expect(
      ((await mcp.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name,
    ).toBeTruthy()
  })

  it('lets a dream started by schedule_dream finish before closing the database', async () => {
    const server = await startServer(testConfig())
    const honcho = new Honcho({ baseURL: server.url, workspaceId: 'dreamy', maxRetries: 0 })
    const session = await honcho.session('s')
    await session.addMessages([
      (await honcho.peer('alice')).message('We switched from MySQL to Postgres last week.'),
    ])
    await honcho.scheduleDream({ observer: 'alice' })
    const watcher = await openHyMemStore({ root: server.memory.root })
    await server.close()
    const runs = await watcher.dreamRuns.recent('dreamy')
    await watcher.close()
    expect(runs.length).toBeGreaterThan(0)
    expect(runs.every((run) => run.finishedAt !== null)).toBe(true)
  })

  it('refuses to bind beyond loopback without tokens', async () => {
    const config = testConfig()
    const exposed = { ...config, honcho: { ...config.honcho, host: '0.0.0.0', loopback: false } }
    await expect(startServer(exposed)).rejects.toBeInstanceOf(ServerConfigError)
  })

  it('requires a bearer token when tokens are configured, on Honcho routes and /mcp', async () => {
    const server = await start(testConfig({ HYMEM_AUTH_TOKENS: 'secret=team' }))
    await expect(
      new Honcho({ baseURL: server.url, workspaceId: 'team', maxRetries: 0 }).getMetadata(),
    ).rejects.toBeInstanceOf(AuthenticationError)
    const ok = new Honcho({ baseURL: server.url, workspaceId: 'team', apiKey: 'secret', maxRetries: 0 })
    expect(await ok.getMetadata()).toEqual({})
    const other = new Honcho({
      baseURL: server.url,
      workspaceId: 'elsewhere',
      apiKey: 'secret',
      maxRetries: 0,
    })
    await expect(other.getMetadata()).rejects.toBeInstanceOf(NotFoundError)
    const mcp = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(MCP_INIT),
    })
    expect(mcp.status).toBe(401)
  })

  it('finishes a write in flight on close, then stops accepting connections', async () => {
    const server = await startServer(testConfig())
    const body = JSON.stringify({
      messages: Array.from({ length: 100 }, (_, i) => ({ peer_id: 'alice', content: `message ${i}` })),
    })
    const half = Math.floor(body.length / 2)
    // `Expect: 100-continue` makes the server answer "100 Continue" once it has taken the request on.
    const write = request(`${server.url}/v3/workspaces/w/sessions/s/messages`, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        expect: '100-continue',
      },
    })
    const response = new Promise<IncomingMessage>((resolve, reject) => {
      write.once('response', resolve)
      write.once('error', reject)
    })
    const accepted = once(write, 'continue')
    write.flushHeaders()
    await accepted
    write.write(body.slice(0, half))
    // The request is in flight (taken on, half its body sent) when shutdown starts.
    const counting = await openHyMemStore({ root: server.memory.root })
    const closed = server.close()
    await waitUntilRefused(`${server.url}/health`)
    write.end(body.slice(half))
    const answer = await response
    answer.resume()
    expect(answer.statusCode).toBe(201)
    await closed
    expect(await counting.messages.count('w')).toBe(100)
    await counting.close()
    await expect(fetch(`${server.url}/health`)).rejects.toThrow()
  })
})

describe('dreams in the worker thread', () => {
  it('keeps serving while the dream worker is killed mid-dream; the worker restarts and the work gets done', async () => {
    const server = await start(testConfig({ HYMEM_DREAM_COOLDOWN_SECONDS: '0', HYMEM_DREAM_BUDGET: '1000' }))
    expect(server.startupLine).toContain('dreams in a worker thread')
    const honcho = new Honcho({ baseURL: server.url, workspaceId: 'default', maxRetries: 0 })
    const session = await honcho.session('s')
    const alice = await honcho.peer('alice')
    for (let batch = 0; batch < 8; batch++) {
      await session.addMessages(
        Array.from({ length: 100 }, (_, i) =>
          alice.message(i % 2 === 0 ? `The svc${batch}x${i} depends on redis and uses kafka.` : 'ok'),
        ),
      )
    }
    const verbose = async () =>
      (await (await fetch(`${server.url}/health?verbose`)).json()) as {
        dreams: RuntimeStatus['dreams']
      }
    // Background dreaming has started on the messages: end the worker as soon as a chunk is committed.
    await until(async () => ((await verbose()).dreams.running[0]?.chunks?.done ?? 0) > 0)
    await (
      server.memory as unknown as { _dreamWorker: { terminate(): Promise<void> } }
    )._dreamWorker.terminate()

    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok' })
    expect((await honcho.search('redis', { limit: 3 })).length).toBeGreaterThan(0)
    const crashed = await verbose()
    expect(crashed.dreams).toMatchObject({ mode: 'worker', crashes: 1 })
    expect(crashed.dreams.lastCrash?.message).toMatch(/exited with code/)

    // The crashed cycle is asked for again; the restarted worker resumes it and empties the queue.
    await until(async () => {
      const status = await honcho.queueStatus()
      return status.pendingWorkUnits + status.inProgressWorkUnits === 0
    })
    const backlog = await server.memory.queue.backlog()
    expect(backlog).toMatchObject({ pendingMessages: 0, pendingChunks: 0 })
    const { dreams: runs } = await server.memory.inspect.health()
    expect(runs.some((run) => run.status === 'failed' && /interrupted/.test(run.errors[0] ?? ''))).toBe(true)
    expect(runs[0]?.status).toBe('ok')
    expect((await verbose()).dreams.state).not.toBe('restarting')
  }, 60_000)
})

/** Polls until a new connection to `url` fails: the server has stopped listening. */
async function waitUntilRefused(url: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const res = await fetch(url, { headers: { connection: 'close' } })
      await res.body?.cancel()
    } catch {
      return
    }
    if (Date.now() > deadline) throw new Error(`${url} still answers`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

/** Polls `condition` until it holds (bounded). */
async function until(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
