import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from './harness'

const CLI_DIR = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(CLI_DIR, 'dist', 'bin.js')

function newestSource(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const path = join(dir, entry.name)
      return entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs
    }),
  )
}

const textOf = (result: unknown) =>
  (result as CallToolResult).content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')

// The real MCP SDK client talking to the built `hymem mcp` over stdio, as Claude Desktop or Claude Code would.
describe('hymem mcp over stdio (built binary, real MCP client)', { timeout: 120_000 }, () => {
  beforeAll(() => {
    if (!existsSync(BIN) || statSync(BIN).mtimeMs < newestSource(join(CLI_DIR, 'src'))) {
      const manifest = createRequire(import.meta.url).resolve('tsup/package.json')
      const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }
      execFileSync(process.execPath, [join(dirname(manifest), bin.tsup!)], { cwd: CLI_DIR, stdio: 'pipe' })
    }
  }, 120_000)

  let root: string
  let cleanup: () => void
  let client: Client
  beforeEach(async () => {
    ;({ dir: root, cleanup } = tempDir())
    client = new Client({ name: 'hymem-stdio-test', version: '1.0.0' })
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--conditions=@hymem/source', '--import', 'tsx', BIN, 'mcp', '--workspace', 'stdio-project'],
        cwd: CLI_DIR,
        env: { PATH: process.env.PATH ?? '', HOME: root, HYMEM_ROOT: root, HYMEM_EMBEDDING_PROVIDER: 'none' },
        stderr: 'pipe',
      }),
    )
  })
  afterEach(async () => {
    await client.close()
    cleanup()
  })

  it('lists the tools and captures, dreams and recalls a fact', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toContain('hymem_capture')
    expect(tools).toHaveLength(18)
    const captured = await client.callTool({
      name: 'hymem_capture',
      arguments: {
        messages: [
          { role: 'user', content: 'Our billing service uses PostgreSQL as its main database.' },
          { role: 'assistant', content: 'Noted: billing runs on PostgreSQL.' },
        ],
        dream: true,
      },
    })
    expect(captured.isError).toBeFalsy()
    const recalled = await client.callTool({
      name: 'hymem_augment',
      arguments: { message: 'Which database does billing use?' },
    })
    expect(textOf(recalled).toLowerCase()).toContain('postgresql')
    const guide = await client.callTool({ name: 'hymem_usage_guide', arguments: { section: 'claude_md' } })
    expect(textOf(guide)).toContain('workspace `stdio-project`')
  })

  it('answers bad arguments with an isError result, and keeps serving', async () => {
    const bad = await client.callTool({ name: 'hymem_log', arguments: { role: 'robot', content: 'x' } })
    expect(bad.isError).toBe(true)
    expect(textOf(bad)).toContain('role')
    const good = await client.callTool({ name: 'hymem_stats', arguments: {} })
    expect(good.isError).toBeFalsy()
  })

  it('dreams in the background after captures, off the tool-call thread, with no hymem_dream call', async () => {
    const dreaming = new Client({ name: 'hymem-stdio-dreams', version: '1.0.0' })
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=@hymem/source', '--import', 'tsx', BIN, 'mcp', '--workspace', 'dreams'],
      cwd: CLI_DIR,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: root,
        HYMEM_ROOT: join(root, 'dreams'),
        HYMEM_EMBEDDING_PROVIDER: 'none',
        HYMEM_DREAM_COOLDOWN_SECONDS: '1',
      },
      stderr: 'pipe',
    })
    let stderr = ''
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
    })
    await dreaming.connect(transport)
    try {
      const recall = async (message: string) =>
        ((await dreaming.callTool({ name: 'hymem_augment', arguments: { message } })) as CallToolResult)
          .structuredContent as { graph_facts: { object: string }[] }
      const objects = async (message: string, wanted: string) => {
        const started = Date.now()
        for (;;) {
          const facts = (await recall(message)).graph_facts.map((fact) => fact.object)
          if (facts.includes(wanted) || Date.now() - started > 60_000) return facts
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
      }
      const capture = (content: string) =>
        dreaming.callTool({ name: 'hymem_capture', arguments: { messages: [{ role: 'user', content }] } })
      await capture('Our billing service uses PostgreSQL as its main database.')
      expect(await objects('Which database does billing use?', 'postgresql')).toContain('postgresql')
      // A second capture within the cooldown is dreamed when the cooldown ends.
      await capture('We deploy the API to Fly.io every Friday.')
      expect(await objects('Where do we deploy the API?', 'flyio')).toContain('flyio')
      // The facts are visible once the dream commits; the scheduler reports idle when its run has returned.
      const nextDream = async () => {
        const started = Date.now()
        for (;;) {
          const stats = (await dreaming.callTool({ name: 'hymem_stats', arguments: {} })) as CallToolResult
          const next = (stats.structuredContent as { next_dream: { running: boolean; due_at: unknown } })
            .next_dream
          if ((!next.running && next.due_at === null) || Date.now() - started > 30_000) return next
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      }
      expect(await nextDream()).toMatchObject({ running: false, due_at: null })
      expect(stderr).toContain('over stdio · dreams in a worker thread')
    } finally {
      await dreaming.close()
    }
  })
})
