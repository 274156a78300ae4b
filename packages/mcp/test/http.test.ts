import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Hono } from 'hono'
import type { HyMem } from 'hymem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMcpHttpHandler } from '../src'
import { DEVELOPER_CHAT, openTestMemory, textOf } from './harness'

describe('MCP over Streamable HTTP on loopback', () => {
  let memory: HyMem
  let cleanup: () => Promise<void>
  let server: ServerType
  let url: URL

  beforeAll(async () => {
    ;({ memory, cleanup } = await openTestMemory())
    const app = new Hono()
    const handler = createMcpHttpHandler({
      memory,
      allowWorkspace: (workspaceId) => workspaceId !== 'forbidden',
    })
    app.all('/mcp', (c) => handler(c.req.raw))
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve())
    })
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`)
  })
  afterAll(async () => {
    ;(server as Server).closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    await cleanup()
  })

  const connect = async (headers: Record<string, string> = {}) => {
    const client = new Client({ name: 'hymem-http-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }))
    return client
  }

  it('lists tools and runs capture → dream → augment end to end', async () => {
    const client = await connect({ 'X-HyMem-Workspace': 'http-ws' })
    const { tools } = await client.listTools()
    expect(tools).toHaveLength(18)
    await client.callTool({ name: 'hymem_capture', arguments: { messages: DEVELOPER_CHAT, dream: true } })
    const recalled = await client.callTool({
      name: 'hymem_augment',
      arguments: { message: 'which database for billing?' },
    })
    expect(textOf(recalled).toLowerCase()).toContain('postgres')
    await client.close()
  })

  it('scopes each connection to its X-HyMem-Workspace header', async () => {
    const a = await connect({ 'X-HyMem-Workspace': 'alpha' })
    const b = await connect({ 'X-HyMem-Workspace': 'beta' })
    await a.callTool({
      name: 'hymem_remember',
      arguments: { description: 'Alpha only', content: 'Alpha ships on Fridays.' },
    })
    const seenByB = await b.callTool({ name: 'hymem_search', arguments: { query: 'Alpha ships Fridays' } })
    expect((seenByB.structuredContent as { results: unknown[] }).results).toHaveLength(0)
    const guide = await b.callTool({ name: 'hymem_usage_guide', arguments: { section: 'claude_md' } })
    expect(textOf(guide)).toContain('workspace `beta`')
    await a.close()
    await b.close()
  })

  it('refuses foreign Host and Origin headers (DNS rebinding) and bad workspace ids', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    }
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(initialize),
      })
    expect((await post({ origin: 'https://evil.example' })).status).toBe(403)
    expect((await post({ 'x-hymem-workspace': 'bad workspace!' })).status).toBe(400)
    expect((await post({ 'x-hymem-workspace': 'forbidden' })).status).toBe(404)
    expect((await post({ origin: 'http://localhost:3000' })).status).toBe(403)
    expect((await post({ 'sec-fetch-site': 'same-site' })).status).toBe(403)
    expect((await post({ origin: new URL(url).origin })).status).toBe(200)

    const handler = createMcpHttpHandler({ memory })
    const rebound = await handler(
      new Request('http://attacker.example/mcp', {
        method: 'POST',
        headers: { host: 'attacker.example' },
        body: '{}',
      }),
    )
    expect(rebound.status).toBe(421)
    expect(await rebound.json()).toMatchObject({
      error: { message: 'Host "attacker.example" is not a name this server answers to' },
    })
  })
})
