import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createFakeEmbeddings } from '@hymem/extraction'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { createHyMem, type HyMem } from 'hymem'
import { afterEach, beforeEach } from 'vitest'
import { createMcpServer, type McpServerOptions } from '../src'

let opened = 0

/**
 * A real HyMem in a temp dir (rules extractor, fake embeddings): on SQLite, or on the PostgreSQL database
 * `HYMEM_MCP_TEST_DATABASE` names (tools.postgres.test.ts sets it), with the Markdown files mirrored in the dir.
 */
export async function openTestMemory(
  options: { dreamCooldownMs?: number } = {},
): Promise<{ memory: HyMem; cleanup: () => Promise<void> }> {
  const root = mkdtempSync(join(tmpdir(), 'hymem-mcp-'))
  // `{n}` in the URL numbers the memories, so each gets a schema of its own on a shared server.
  const database = process.env.HYMEM_MCP_TEST_DATABASE?.replace('{n}', String(++opened))
  const memory = await createHyMem({
    root,
    llm: null,
    embeddings: createFakeEmbeddings({ dimensions: 64 }),
    ...(database ? { database } : {}),
    ...options,
  })
  return {
    memory,
    cleanup: async () => {
      await memory.close()
      rmSync(root, { recursive: true, force: true })
    },
  }
}

/** A real MCP client connected to a server over the SDK's in-memory transport (no background dreams unless asked). */
export async function connectInMemory(options: McpServerOptions): Promise<Client> {
  const server = createMcpServer({ backgroundDreaming: false, ...options })
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
  await server.connect(serverTransport)
  const client = new Client({ name: 'hymem-test', version: '1.0.0' })
  await client.connect(clientTransport)
  return client
}

/** A test memory and an MCP client connected to it. */
export interface ConnectedMemory {
  readonly memory: HyMem
  readonly client: Client
}

/**
 * `openTestMemory()` and a client connected to it on `workspaceId`, fresh for each test of the calling suite and
 * closed after it; the returned function gives the current test's.
 */
export function useConnectedMemory(workspaceId = 'proj'): () => ConnectedMemory {
  let current: (ConnectedMemory & { cleanup: () => Promise<void> }) | undefined
  beforeEach(async () => {
    const { memory, cleanup } = await openTestMemory()
    current = { memory, cleanup, client: await connectInMemory({ memory, workspaceId }) }
  })
  afterEach(async () => {
    await current?.client.close()
    await current?.cleanup()
    current = undefined
  })
  return () => {
    if (!current) throw new Error('useConnectedMemory(): the memory exists only while a test runs')
    return current
  }
}

export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')
}

export const DEVELOPER_CHAT = [
  { role: 'user' as const, content: 'We use PostgreSQL for the main database of the billing service.' },
  { role: 'assistant' as const, content: 'Noted: billing runs on PostgreSQL.' },
  { role: 'user' as const, content: 'I prefer pnpm over npm for every project, please remember that.' },
  { role: 'assistant' as const, content: 'Understood, pnpm it is.' },
]
