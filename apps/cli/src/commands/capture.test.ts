import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createHyMem, openHyMemStore } from 'hymem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { captureContext, fixture, tempDir } from '../../test/harness'
import { runCli } from '../run'
import { captureCommand } from './capture'
import { CAPTURE_BATCH_LINES } from './capture-batches'

describe('hymem capture', () => {
  let root: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ dir: root, cleanup } = tempDir())
  })
  afterEach(() => cleanup())

  async function messagesBySession(): Promise<Record<string, string[]>> {
    const store = await openHyMemStore({ root })
    try {
      const out: Record<string, string[]> = {}
      for await (const m of store.messages.iterate('default')) {
        const line = `${m.createdAt} ${m.peerId}/${m.role}: ${m.content}`
        out[m.sessionId] = [...(out[m.sessionId] ?? []), line]
      }
      return out
    } finally {
      await store.close()
    }
  }

  it('logs a JSONL file in one transaction, keeping times, roles and peers', async () => {
    const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: root } })
    const result = await captureCommand(fixture('conversation.jsonl'), {}, ctx)
    expect(result.sessions).toEqual({ kickoff: 3, release: 2 })
    expect(stdout()).toMatchInlineSnapshot(`
      "Captured 5 messages in 2 sessions (workspace default)
      Run "hymem dream" to turn them into memory.
      "
    `)
    expect(await messagesBySession()).toMatchInlineSnapshot(`
      {
        "kickoff": [
          "2026-06-10T09:00:00.000Z user/user: We switched from MySQL to PostgreSQL last year.",
          "2026-06-10T09:00:30.000Z assistant/assistant: Noted: PostgreSQL is the database.",
          "2026-06-10T09:01:00.000Z maya/user: I prefer pnpm over npm for the monorepo.",
        ],
        "release": [
          "2026-06-14T16:00:00.000Z user/user: We deploy the API to Fly.io and the web app is hosted on Vercel.",
          "2026-06-14T16:00:20.000Z assistant/assistant: Got it, Fly.io for the API and Vercel for the web app.",
        ],
      }
    `)
  })

  it('reads a JSON array from stdin and dreams with --dream --json', async () => {
    const turns = readFileSync(fixture('conversation.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line))
    const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: root }, stdin: JSON.stringify(turns) })
    expect(await runCli(['capture', '-', '--dream', '--json'], ctx)).toBe(0)
    const result = JSON.parse(stdout())
    expect(result.messages).toBe(5)
    expect(result.dream).toMatchObject({ status: 'ok', extractor: 'rules', workspaceId: 'default' })
    expect(result.dream.edgesUpserted).toBeGreaterThan(0)
  })

  async function storedMessages(): Promise<number> {
    const memory = await createHyMem({ root, embeddings: null })
    try {
      return await memory.messages.count(memory.workspaceId)
    } finally {
      await memory.close()
    }
  }

  const line = (i: number) => JSON.stringify({ session_id: `s${i % 3}`, role: 'user', content: `line ${i}` })

  it('streams a file of several batches, storing every line once', async () => {
    const lines = Array.from({ length: CAPTURE_BATCH_LINES * 3 + 17 * 3 }, (_, i) => line(i + 1))
    writeFileSync(join(root, 'big.jsonl'), `${lines.join('\n')}\n`)
    const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: root }, cwd: root })
    expect(await runCli(['capture', 'big.jsonl', '--json'], ctx)).toBe(0)
    const third = lines.length / 3
    expect(JSON.parse(stdout())).toMatchObject({
      messages: lines.length,
      sessions: { s0: third, s1: third, s2: third },
    })
    expect(await storedMessages()).toBe(lines.length)
  })

  it('stores nothing when a line deep in the file is bad, after whole batches were written', async () => {
    const lines = Array.from({ length: CAPTURE_BATCH_LINES * 3 }, (_, i) => line(i + 1))
    lines[CAPTURE_BATCH_LINES * 2 + 500] = '{"session_id":"s0","role":"user","content":""}'
    const { ctx, stderr } = captureContext({ env: { HYMEM_ROOT: root }, stdin: lines.join('\n') })
    expect(await runCli(['capture', '-'], ctx)).toBe(1)
    expect(stderr()).toMatchInlineSnapshot(`
      "note: no LLM key (HYMEM_LLM_API_KEY or DEEPSEEK_API_KEY): dreaming uses the rule-based extractor and no LLM reranker
      note: no embeddings: search is keyword + graph + recency only
      error: line 2501: "content" must not be empty
      error: a bad line in stdin; nothing was written
      "
    `)
    expect(await storedMessages()).toBe(0)
  })

  it('stores nothing when Ctrl-C comes mid-file', async () => {
    const interrupt = new AbortController()
    async function* slowStdin() {
      for (let i = 1; i <= CAPTURE_BATCH_LINES * 3; i++) {
        if (i === CAPTURE_BATCH_LINES * 2) interrupt.abort()
        yield `${line(i)}\n`
      }
    }
    const { ctx, stderr } = captureContext({ env: { HYMEM_ROOT: root } })
    const interruptible = { ...ctx, stdin: slowStdin(), interruptible: () => interrupt.signal }
    expect(await runCli(['capture', '-'], interruptible)).toBe(130)
    expect(stderr()).toMatchInlineSnapshot(`
      "note: no LLM key (HYMEM_LLM_API_KEY or DEEPSEEK_API_KEY): dreaming uses the rule-based extractor and no LLM reranker
      note: no embeddings: search is keyword + graph + recency only
      error: capture interrupted: nothing was written
      "
    `)
    expect(await storedMessages()).toBe(0)
  })

  it('writes nothing and names every bad line when one line is wrong', async () => {
    const input = [
      '{"session_id":"s","role":"user","content":"fine"}',
      '{"session_id":"s","role":"user"}',
      '{"session_id":"s","role":"wizard","content":"x"}',
    ].join('\n')
    const { ctx, stderr } = captureContext({ env: { HYMEM_ROOT: root }, stdin: input })
    expect(await runCli(['capture', '-'], ctx)).toBe(1)
    expect(stderr()).toMatchInlineSnapshot(`
      "note: no LLM key (HYMEM_LLM_API_KEY or DEEPSEEK_API_KEY): dreaming uses the rule-based extractor and no LLM reranker
      note: no embeddings: search is keyword + graph + recency only
      error: line 2: missing "content"
      error: line 3: "role" must be one of user, assistant, system, tool
      error: 2 bad lines in stdin; nothing was written
      "
    `)
    expect(await storedMessages()).toBe(0)
  })

  it('stops with one line for a missing file or a directory', async () => {
    const missing = captureContext({ env: { HYMEM_ROOT: root }, cwd: root })
    expect(await runCli(['capture', 'nope.jsonl'], missing.ctx)).toBe(1)
    expect(missing.stderr()).toMatchInlineSnapshot(`
      "error: cannot read nope.jsonl: no such file or directory (check the path)
      "
    `)
    const dir = captureContext({ env: { HYMEM_ROOT: root }, cwd: root })
    expect(await runCli(['capture', '.'], dir.ctx)).toBe(1)
    expect(dir.stderr()).toMatchInlineSnapshot(`
      "error: cannot read .: is a directory, not a file
      "
    `)
  })

  it('needs a file argument (usage, exit 2)', async () => {
    const { ctx, stderr } = captureContext({ env: { HYMEM_ROOT: root } })
    expect(await runCli(['capture'], ctx)).toBe(2)
    expect(stderr()).toMatchInlineSnapshot(`
      "error: missing required argument 'file'
      Usage: hymem capture [options] <file>
      (run "hymem capture --help" for the options)
      "
    `)
  })
})
