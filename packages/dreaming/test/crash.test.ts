import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { createLLMExtractor } from '@hymem/extraction'
import { beforeAll, describe, expect, it } from 'vitest'
import { dream } from '../src/run/dream'
import { dreamLockName } from '../src/run/lock'
import type { DreamProgressEvent } from '../src/types'
import { CRASH_CLOCK, CRASH_WORKSPACE, seedCrashScenario } from './crash-scenario'
import { graphSnapshot, openTestStore, type TestStore, tableCounts } from './harness'
import { createRulesBackedLLM } from './rules-as-llm'

const here = dirname(fileURLToPath(import.meta.url))
const repoRoot = resolve(here, '../../..')
const child = join(here, 'fixtures/crash-child.ts')

type KillPoint = { name: string; when: (e: DreamProgressEvent) => boolean }

/**
 * Runs the child dream and SIGKILLs it at the first event `when` matches; the child stops at every event
 * until told to go on, so it is killed at that point and not later. Resolves with what it saw.
 */
function dreamAndKill(t: TestStore, when: KillPoint['when']): Promise<{ killed: boolean; events: number }> {
  return new Promise((resolvePromise, reject) => {
    const proc = spawn(
      process.execPath,
      ['--conditions=@hymem/source', '--import', 'tsx', child, t.path, t.dir, '15'],
      { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] },
    )
    let killed = false
    let events = 0
    let stderr = ''
    proc.stderr.on('data', (d) => {
      stderr += String(d)
    })
    createInterface({ input: proc.stdout }).on('line', (line) => {
      if (killed) return
      const event = JSON.parse(line) as DreamProgressEvent | { kind: 'done' }
      events++
      if (event.kind === 'done') return
      if (when(event)) {
        killed = true
        proc.kill('SIGKILL')
      } else {
        // The child waits at each event for this go-ahead, so the kill above lands exactly at its event.
        proc.stdin.write('\n')
      }
    })
    proc.on('error', reject)
    // A go-ahead written as the child dies fails with EPIPE; the exit below reports the child.
    proc.stdin.on('error', () => {})
    proc.on('exit', (code, signal) => {
      if (!killed && code !== 0) reject(new Error(`child exited ${code ?? signal}: ${stderr}`))
      else resolvePromise({ killed: killed && signal === 'SIGKILL', events })
    })
  })
}

async function finish(t: TestStore) {
  return dream({
    store: t.store,
    workspaceId: CRASH_WORKSPACE,
    extractor: createLLMExtractor({ llm: createRulesBackedLLM() }),
    markdown: t.markdown,
    concurrency: 2,
  })
}

async function state(t: TestStore) {
  const { store } = t
  const sessions = await store.sessions.list(CRASH_WORKSPACE, { size: 100 })
  return {
    graph: await graphSnapshot(store, CRASH_WORKSPACE),
    counts: await tableCounts(store, CRASH_WORKSPACE),
    episodes: (await store.episodes.listAll(CRASH_WORKSPACE)).map((e) => [e.id, e.title, e.chunkIds]),
    procedures: (await store.procedures.listAll(CRASH_WORKSPACE)).map((p) => [p.id, p.steps]),
    summaries: sessions.items
      .map((s) => [s.id, s.summary, s.summaryMessageId])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    userMd: readFileSync(t.markdown.userMdPath, 'utf8'),
    memoryMd: readFileSync(t.markdown.memoryMdPath, 'utf8'),
  }
}

describe('crash safety: a dream killed with SIGKILL, then run again', () => {
  let reference: Awaited<ReturnType<typeof state>>
  beforeAll(async () => {
    const t = openTestStore(CRASH_CLOCK)
    await seedCrashScenario(t.store)
    expect((await finish(t)).status).toBe('ok')
    reference = await state(t)
    await t.cleanup()
  })

  const points: KillPoint[] = [
    { name: 'after chunking', when: (e) => e.kind === 'phase-end' && e.phase === 'chunk' },
    { name: 'after 3 chunks', when: (e) => e.kind === 'chunk' && e.index === 3 },
    { name: 'after 9 chunks', when: (e) => e.kind === 'chunk' && e.index === 9 },
    { name: 'between sessions', when: (e) => e.kind === 'session' && e.index === 1 },
    { name: 'at decay', when: (e) => e.kind === 'phase-start' && e.phase === 'decay' },
  ]

  for (const point of points) {
    it(`killed ${point.name}: the next run ends with the same memory as an uninterrupted run`, {
      timeout: 90_000,
    }, async () => {
      const t = openTestStore(CRASH_CLOCK)
      try {
        await seedCrashScenario(t.store)
        const outcome = await dreamAndKill(t, point.when)
        expect(outcome.killed).toBe(true)
        const lock = dreamLockName(CRASH_WORKSPACE)
        // the dead child's lock, taken over at once (same host, pid gone)
        expect(await t.store.runLock.inspect(lock)).not.toBeNull()
        const report = await finish(t)
        expect(report.status).toBe('ok')
        expect(await state(t)).toEqual(reference)
        expect(await t.store.runLock.inspect(lock)).toBeNull()
        const runs = await t.store.dreamRuns.recent(CRASH_WORKSPACE)
        expect(runs.map((r) => r.status)).toEqual(['ok', 'failed'])
        expect(runs[1]!.errors[0]).toMatch(/interrupted/)
      } finally {
        await t.cleanup()
      }
    })
  }
})
