import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { configFromEnv, type HyMemConfig } from 'hymem'
import { afterEach, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../src/start-server'

const roots: string[] = []
const servers: RunningServer[] = []

function testConfig(env: Record<string, string> = {}): HyMemConfig {
  const root = mkdtempSync(join(tmpdir(), 'hymem-honcho-inspect-'))
  roots.push(root)
  const { config, errors } = configFromEnv({ HYMEM_ROOT: root, HYMEM_EMBEDDING_PROVIDER: 'fake', ...env })
  expect(errors).toEqual([])
  return { ...config, honcho: { ...config.honcho, port: 0 } }
}

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

describe('the memory inspector in hymem-honcho', () => {
  it('is served at /inspect on loopback, with a strict Content-Security-Policy', async () => {
    const server = await startServer(testConfig())
    servers.push(server)
    expect(server.startupLine).toContain('inspector /inspect')
    await server.memory.capture([{ role: 'user', content: 'We deploy the API to Fly.io.' }], { dream: true })
    const start = await fetch(`${server.url}/inspect`, { redirect: 'manual' })
    expect(start.status).toBe(303)
    expect(start.headers.get('location')).toBe('/inspect/w/default/graph')
    const graph = await fetch(`${server.url}/inspect/w/default/graph`)
    expect(graph.status).toBe(200)
    expect(graph.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(await graph.text()).toContain('flyio')
    expect((await fetch(`${server.url}/health`)).status).toBe(200)
  })

  it('bound beyond loopback, refuses a request without a token and answers one with a token', async () => {
    const config = testConfig({ HYMEM_AUTH_TOKENS: 'secret=default' })
    const server = await startServer({
      ...config,
      honcho: { ...config.honcho, host: '0.0.0.0', loopback: false, allowedHosts: ['memory.example.org'] },
    })
    servers.push(server)
    const url = server.url.replace('0.0.0.0', '127.0.0.1')
    const refused = await fetch(`${url}/inspect/w/default/graph`, { headers: { accept: 'text/html' } })
    expect(refused.status).toBe(401)
    expect(await refused.text()).toContain('Sign in')
    const allowed = await fetch(`${url}/inspect/w/default/graph`, {
      headers: { authorization: 'Bearer secret' },
    })
    expect(allowed.status).toBe(200)
    const elsewhere = await fetch(`${url}/inspect/w/other/graph`, {
      headers: { authorization: 'Bearer secret' },
    })
    expect(elsewhere.status).toBe(404)
  })
})
