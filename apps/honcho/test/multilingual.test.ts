import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Honcho } from '@honcho-ai/sdk'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { configFromEnv } from 'hymem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../src/start-server'

interface ScriptSamples {
  readonly script: string
  readonly messages: readonly string[]
  readonly question: string
}

// The corpus the store's multilingual contract runs on (zh, ja, ko, th, ru, el, ar, hi, English distractors).
const CORPUS: { english: readonly string[]; scripts: readonly ScriptSamples[] } = JSON.parse(
  readFileSync(
    join(import.meta.dirname, '../../../packages/core-store/test/fixtures/multilingual.json'),
    'utf8',
  ),
)

const DATABASES: readonly (readonly [label: string, url: (root: string) => string | null])[] = [
  ['SQLite', () => null],
  ['PostgreSQL on PGlite', (root) => `pglite:${join(root, 'pglite')}`],
  ...(process.env.HYMEM_TEST_DATABASE_URL
    ? [
        [
          'PostgreSQL server',
          () =>
            `${process.env.HYMEM_TEST_DATABASE_URL}?schema=multilingual_${process.pid}_${Date.now().toString(36)}`,
        ] as const,
      ]
    : []),
]

for (const [label, databaseUrl] of DATABASES) {
  describe(`a same-language question finds its message first, in every script: ${label}`, {
    timeout: 180_000,
  }, () => {
    let root: string
    let server: RunningServer
    let mcp: Client
    let honcho: Honcho

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'hymem-multilingual-'))
      const url = databaseUrl(root)
      const { config, errors } = configFromEnv({
        HYMEM_ROOT: root,
        // Keyword search is under test: the fake embedder's hashed vectors would add random similarities.
        HYMEM_EMBEDDING_PROVIDER: 'none',
        ...(url ? { HYMEM_DATABASE_URL: url } : {}),
      })
      expect(errors).toEqual([])
      server = await startServer({ ...config, honcho: { ...config.honcho, port: 0 } })
      honcho = new Honcho({ baseURL: server.url, workspaceId: 'default', maxRetries: 0 })
      const session = await honcho.session('languages')
      const alice = await honcho.peer('alice')
      const texts = [...CORPUS.english, ...CORPUS.scripts.flatMap((samples) => samples.messages)]
      await session.addMessages(texts.map((text) => alice.message(text)))
      mcp = new Client({ name: 'multilingual-test', version: '0' })
      await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
      for (const [at, text] of texts.entries())
        await mcp.callTool({
          name: 'hymem_remember',
          arguments: { description: `note ${at}`, content: text },
        })
    }, 180_000)

    afterAll(async () => {
      await mcp?.close()
      await server?.close()
      rmSync(root, { recursive: true, force: true })
    })

    it('through augment', async () => {
      const firsts: Record<string, string | undefined> = {}
      for (const { script, question } of CORPUS.scripts) {
        const context = await server.memory.augment(question)
        firsts[script] = context.hits[0]?.text
      }
      expect(firsts).toEqual(expected())
    })

    it('through Honcho search', async () => {
      const firsts: Record<string, string | undefined> = {}
      for (const { script, question } of CORPUS.scripts)
        firsts[script] = (await honcho.search(question, { limit: 5 }))[0]?.content
      expect(firsts).toEqual(expected())
    })

    it('through the MCP hymem_search', async () => {
      const firsts: Record<string, string | undefined> = {}
      for (const { script, question } of CORPUS.scripts) {
        const result = await mcp.callTool({ name: 'hymem_search', arguments: { query: question } })
        const { results } = result.structuredContent as { results: { content: string }[] }
        firsts[script] = results[0]?.content
      }
      expect(firsts).toEqual(expected())
    })
  })
}

function expected(): Record<string, string> {
  return Object.fromEntries(CORPUS.scripts.map(({ script, messages }) => [script, messages[0]!]))
}
