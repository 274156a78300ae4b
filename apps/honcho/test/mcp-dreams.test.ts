import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { configFromEnv } from 'hymem'
import { afterEach, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../src/start-server'

let server: RunningServer | undefined
let root: string | undefined
afterEach(async () => {
  await server?.close()
  if (root) rmSync(root, { recursive: true, force: true })
  server = undefined
  root = undefined
})

describe('/mcp dreams in the background after writes', { timeout: 90_000 }, () => {
  it('turns captures into graph facts in the dream worker, with no hymem_dream call', async () => {
    root = mkdtempSync(join(tmpdir(), 'hymem-honcho-mcp-dreams-'))
    const { config, errors } = configFromEnv({
      HYMEM_ROOT: root,
      HYMEM_EMBEDDING_PROVIDER: 'fake',
      HYMEM_DREAM_COOLDOWN_SECONDS: '1',
    })
    expect(errors).toEqual([])
    server = await startServer({ ...config, honcho: { ...config.honcho, port: 0 } })
    expect(server.memory.runtime().dreams.mode).toBe('worker')
    const client = new Client({ name: 'hymem-http-dreams', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
    try {
      const objects = async (message: string, wanted: string) => {
        const started = Date.now()
        for (;;) {
          const result = (await client.callTool({
            name: 'hymem_augment',
            arguments: { message },
          })) as CallToolResult
          const facts = (result.structuredContent as { graph_facts: { object: string }[] }).graph_facts
          if (facts.some((fact) => fact.object === wanted) || Date.now() - started > 60_000) {
            return facts.map((fact) => fact.object)
          }
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
      }
      const capture = (content: string) =>
        client.callTool({ name: 'hymem_capture', arguments: { messages: [{ role: 'user', content }] } })
      await capture('Our billing service uses PostgreSQL as its main database.')
      expect(await objects('Which database does billing use?', 'postgresql')).toContain('postgresql')
      await capture('We deploy the API to Fly.io every Friday.')
      expect(await objects('Where do we deploy the API?', 'flyio')).toContain('flyio')
    } finally {
      await client.close()
    }
  })
})
