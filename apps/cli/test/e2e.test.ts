import { createInterface } from 'node:readline'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from './harness'
import { runCliProcess, spawnCli } from './spawn-cli'

// Each test starts Node + tsx on the whole workspace's sources: seconds each, more on a loaded machine.
describe('the hymem binary (child process)', { timeout: 120_000 }, () => {
  let root: string
  let cleanup: () => void
  let env: Record<string, string>
  beforeEach(() => {
    ;({ dir: root, cleanup } = tempDir())
    env = { HOME: root, HYMEM_ROOT: root, HYMEM_EMBEDDING_PROVIDER: 'none', NO_COLOR: '1' }
  })
  afterEach(() => cleanup())

  it('runs doctor on a fresh root with no key and exits 0', async () => {
    const result = await runCliProcess(['doctor', '--offline'], { env })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/warn +extractor +no LLM key: using the rule-based extractor/)
  })

  it('exits 2 with usage on an unknown command', async () => {
    const result = await runCliProcess(['remember-everything'], { env })
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr.split('\n').slice(0, 3)).toEqual([
      "error: unknown command 'remember-everything'",
      '',
      'Usage: hymem [options] [command]',
    ])
  })

  it('exits 1 with one line, no stack trace, for a missing file', async () => {
    const result = await runCliProcess(['capture', 'nope.jsonl'], { env })
    expect(result.code).toBe(1)
    expect(result.stderr).toBe('error: cannot read nope.jsonl: no such file or directory (check the path)\n')
  })

  it('captures from stdin, dreams, and answers augment --json', async () => {
    const lines = [
      { session_id: 's1', role: 'user', content: 'We switched from MySQL to PostgreSQL last year.' },
      { session_id: 's1', role: 'assistant', content: 'Noted: PostgreSQL it is.' },
    ]
    const input = lines.map((line) => JSON.stringify(line)).join('\n')
    const captured = await runCliProcess(['capture', '-', '--dream', '--json'], { env, input })
    expect(captured.code).toBe(0)
    expect(JSON.parse(captured.stdout)).toMatchObject({
      messages: 2,
      sessions: { s1: 2 },
      dream: { status: 'ok' },
    })

    const augmented = await runCliProcess(['augment', 'do', 'we', 'still', 'use', 'MySQL?', '--json'], {
      env,
    })
    expect(augmented.code).toBe(0)
    const result = JSON.parse(augmented.stdout)
    expect(result.query).toBe('do we still use MySQL?')
    expect(result.hits.map((h: { text: string }) => h.text).join('\n')).toContain(
      'We switched from MySQL to PostgreSQL last year.',
    )
    expect(
      result.graphFacts.map(
        (f: { subject: string; predicate: string; object: string }) =>
          `${f.subject} ${f.predicate} ${f.object}`,
      ),
    ).toContain('postgresql replaces mysql')
  })

  it('serves MCP over stdio: initialize, list tools, exit when stdin closes', async () => {
    const child = spawnCli(['mcp'], env)
    const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`)
    const next = async () => JSON.parse((await replies.next()).value as string)

    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '0' } },
    })
    expect((await next()).result.serverInfo.name).toBe('hymem')
    send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' })
    const tools = (await next()).result.tools.map((t: { name: string }) => t.name)
    expect(tools).toEqual(expect.arrayContaining(['hymem_capture', 'hymem_augment', 'hymem_dream']))

    const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
    child.stdin.end()
    expect(await exited).toBe(0)
  })
})
