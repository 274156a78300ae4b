import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { EMPTY_EXTRACTION_REPLY, freeLoopbackPort, startFakeOpenAIServer } from '@hymem/extraction/testing'
import { createHyMem, openHyMemStore } from 'hymem'
import { afterEach, describe, expect, it } from 'vitest'
import { spawnCli } from './spawn-cli'

/**
 * `hymem worker` processes and a `hymem-honcho --no-dream` on one real PostgreSQL database
 * (HYMEM_TEST_DATABASE_URL, a fresh schema), the fake OpenAI-compatible LLM answering after a delay.
 */
const serverUrl = process.env.HYMEM_TEST_DATABASE_URL

const HONCHO_BIN = fileURLToPath(new URL('../../honcho/src/bin.ts', import.meta.url))
const WORKSPACES = ['alpha', 'beta', 'gamma']
const SESSIONS = 2
const MESSAGES = 12

const children: ChildProcessWithoutNullStreams[] = []
const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
  for (const close of closers.splice(0)) await close()
})

interface Child {
  readonly child: ChildProcessWithoutNullStreams
  readonly exit: Promise<number | null>
  output(): string
}

function watch(child: ChildProcessWithoutNullStreams): Child {
  children.push(child)
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk
  })
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve))
  return { child, exit, output: () => output }
}

/** Polls `check` every 50 ms, at most `turns` times, until it returns a value. */
async function until<T>(what: () => string, check: () => Promise<T | null>, turns = 1200): Promise<T> {
  for (let turn = 0; turn < turns; turn++) {
    const value = await check()
    if (value !== null) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`gave up waiting for ${what()}`)
}

if (serverUrl)
  describe('hymem worker processes beside a hymem-honcho --no-dream', () => {
    it('dream every chunk once, across workspaces, finishing the work of a worker killed mid-dream', async () => {
      const llm = await startFakeOpenAIServer({ latencyMs: 150, defaultReply: () => EMPTY_EXTRACTION_REPLY })
      closers.push(() => llm.close())
      const schema = `workers_${process.pid}_${Date.now().toString(36)}`
      const database = `${serverUrl}${serverUrl.includes('?') ? '&' : '?'}schema=${schema}`
      const env = {
        PATH: process.env.PATH ?? '',
        HYMEM_DATABASE_URL: database,
        HYMEM_ROOT: '',
        HYMEM_EMBEDDING_PROVIDER: 'none',
        HYMEM_LLM_API_KEY: 'test-key',
        HYMEM_LLM_BASE_URL: llm.url,
        HYMEM_LLM_MODEL: 'fake-chat',
        HYMEM_DREAM_BUDGET: '4',
        HYMEM_LOG_LEVEL: 'warn',
      }
      const watcher = await createHyMem({ database, embeddings: null })
      closers.push(() => watcher.close())
      const watcherStore = await openHyMemStore({ database })
      closers.push(() => watcherStore.close())

      const api = watch(
        spawn(process.execPath, ['--import', 'tsx', '--conditions=@hymem/source', HONCHO_BIN, '--no-dream'], {
          env: { ...env, HYMEM_HONCHO_PORT: String(await freeLoopbackPort()) },
        }),
      )
      const url = await until(
        () => 'the API server to listen',
        async () => {
          const match = /listening on (\S+)/.exec(api.output())
          if (api.child.exitCode !== null) throw new Error(`hymem-honcho exited: ${api.output()}`)
          return match ? match[1]! : null
        },
      )
      expect(api.output()).toContain('dreams off (hymem worker)')
      const post = async (path: string, body: unknown) => {
        const response = await fetch(`${url}/v3/workspaces${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
        expect(`${response.status} ${await response.text()}`).toMatch(/^20[0-9] /)
      }
      for (const ws of WORKSPACES) {
        await post('', { id: ws })
        for (let s = 0; s < SESSIONS; s++) {
          const messages = Array.from({ length: MESSAGES }, (_, i) => ({
            peer_id: 'user',
            content: `In ${ws}, service-${s}-${i} depends on cache-${i % 4}; we decided to keep it.`,
          }))
          await post(`/${ws}/sessions/s${s}/messages`, { messages })
        }
        await post(`/${ws}/schedule_dream`, { observer: 'user' })
      }
      const queue = async (ws: string) => {
        const response = await fetch(`${url}/v3/workspaces/${ws}/queue/status`)
        return (await response.json()) as { pending_work_units: number; in_progress_work_units: number }
      }
      // The server never dreams: after its background cooldown would have passed, nothing has run.
      await new Promise((resolve) => setTimeout(resolve, 1500))
      for (const ws of WORKSPACES) {
        expect(await watcherStore.dreamRuns.recent(ws, 10)).toEqual([])
        expect((await queue(ws)).pending_work_units).toBe(SESSIONS * MESSAGES)
      }

      const workers = [0, 1].map(() => watch(spawnCli(['worker', '--idle-seconds', '1'], env)))
      const victim = await until(
        () => 'a worker in the middle of a dream',
        async () => {
          for (const ws of WORKSPACES) {
            const holder = await watcherStore.runLock.inspect(`dream:${ws}`)
            const worker = workers.find((w) => w.child.pid === holder?.pid)
            // The API server sees the worker's dream as work in progress.
            if (worker && (await queue(ws)).in_progress_work_units > 0) return { worker, ws }
          }
          return null
        },
      )
      victim.worker.child.kill('SIGKILL')
      await victim.worker.exit
      const survivor = workers.find((w) => w !== victim.worker)!

      let left = ''
      await until(
        () => `the survivor to dream every workspace: ${left}\n${survivor.output().slice(-3000)}`,
        async () => {
          for (const ws of WORKSPACES) {
            // The workers' extractor and prompt version are the API server's (not this watcher's).
            const holder = await watcherStore.runLock.inspect(`dream:${ws}`)
            const status = await queue(ws)
            left = `${ws}: lock ${holder?.pid ?? 'free'}, ${JSON.stringify(status)}`
            if (holder || status.pending_work_units > 0 || status.in_progress_work_units > 0) return null
          }
          return true
        },
      )
      for (const ws of WORKSPACES) {
        const chunks = []
        for await (const line of watcher.export({ workspaceId: ws })) {
          const record = JSON.parse(line) as { type: string; processed?: unknown[]; messageIds?: string[] }
          if (record.type === 'chunk') chunks.push(record)
        }
        expect(chunks.length).toBeGreaterThan(0)
        for (const chunk of chunks) expect(chunk.processed).toHaveLength(1)
        const chunked = chunks.flatMap((chunk) => chunk.messageIds ?? [])
        expect(new Set(chunked).size).toBe(chunked.length)
        const runs = await watcherStore.dreamRuns.recent(ws, 1000)
        expect(runs.filter((run) => run.status === 'running')).toEqual([])
      }

      const interrupted = await watcherStore.dreamRuns.recent(victim.ws, 1000)
      expect(
        interrupted.filter((run) => run.errors.includes('interrupted: the process ended mid-cycle')),
      ).toHaveLength(1)

      // SIGTERM drains: the survivor stops at its next checkpoint and exits cleanly.
      survivor.child.kill('SIGTERM')
      expect(await survivor.exit).toBe(0)
      expect(survivor.output()).toMatch(/hymem worker stopped after \d+ dreams?/)
      api.child.kill('SIGTERM')
      expect(await api.exit).toBe(0)
    }, 300_000)
  })
