import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { DreamProgressEvent } from '@hymem/dreaming'
import { beforeAll, describe, expect, it } from 'vitest'
import { configFromEnv } from '../src/config/config-from-env'
import { createHyMemFromConfig } from '../src/config/create-from-config'
import { _storeOf } from '../src/hymem'
import type { HyMem } from '../src/types'
import { tempRoot } from './harness'

const here = fileURLToPath(new URL('.', import.meta.url))
const repoRoot = resolve(here, '../../..')
const child = join(here, 'fixtures/worker-dream-child.ts')
const TOOLS = ['redis', 'postgres', 'kafka', 'nginx', 'docker', 'terraform']

async function open(root: string, dreamIn: 'process' | 'worker'): Promise<HyMem> {
  const { config } = configFromEnv({ HOME: root, HYMEM_ROOT: root, HYMEM_EMBEDDING_PROVIDER: 'fake' })
  return createHyMemFromConfig(config, { dreamIn })
}

/** Two sessions of fact-bearing turns (each its own chunk), preferences and a procedure. */
async function seed(memory: HyMem): Promise<void> {
  for (const [s, day] of [
    ['s1', '2026-02-20'],
    ['s2', '2026-02-21'],
  ] as const) {
    const turns = TOOLS.flatMap((tool, i) => [
      `The ${s}svc${i} depends on ${tool} and uses ${TOOLS[(i + 1) % TOOLS.length]}.`,
      'ok',
    ])
    turns.push('I prefer small pull requests over big ones, always.', 'ok')
    turns.push('To release: first run the tests, then build the image, finally push the tag.')
    await memory.logMessages(
      s,
      turns.map((content, i) => ({
        peerId: 'alice',
        content,
        createdAt: `${day}T09:${String(i).padStart(2, '0')}:00.000Z`,
      })),
    )
  }
}

const WS = 'default'

/** What a dream leaves behind, without ids or times. */
async function state(memory: HyMem, root: string) {
  const store = _storeOf(memory)
  const byKey =
    <T>(key: (x: T) => string) =>
    (x: T, y: T) =>
      key(x).localeCompare(key(y))
  return {
    edges: (await store.edges.listAll(WS))
      .map((e) => ({
        subject: e.subject,
        predicate: e.predicate,
        object: e.object,
        status: e.status,
        derived: e.derived,
        posEvidence: e.posEvidence,
        negEvidence: e.negEvidence,
      }))
      .sort(byKey((e) => `${e.subject}\u0000${e.predicate}\u0000${e.object}`)),
    chunks: (await store.chunks.listAll(WS))
      .sort((x, y) => x.id - y.id)
      .map((c) => ({ text: c.text, messageIds: c.messageIds })),
    processed: (await store.chunks.listProcessed(WS)).length,
    episodes: (await store.episodes.listAll(WS))
      .map((e) => ({ title: e.title, summary: e.summary }))
      .sort(byKey((e) => e.title)),
    procedures: (await store.procedures.listAll(WS))
      .map((p) => ({ name: p.name, steps: p.steps }))
      .sort(byKey((p) => p.name)),
    summaries: (await store.sessions.list(WS, { size: 100 })).items
      .map((s) => ({ id: s.id, summary: s.summary }))
      .sort(byKey((s) => s.id)),
    vectors: (await memory.stats()).counts.chunk_embeddings,
    userMd: readFileSync(join(root, 'USER.md'), 'utf8'),
    memoryMd: readFileSync(join(root, 'MEMORY.md'), 'utf8'),
  }
}

/** Runs the child's dream, which SIGKILLs its own process (worker included) at `point`; true when it did. */
function dreamAndKill(root: string, point: Partial<DreamProgressEvent>): Promise<boolean> {
  return new Promise((resolvePromise, reject) => {
    const proc = spawn(
      process.execPath,
      ['--conditions=@hymem/source', '--import', 'tsx', child, root, JSON.stringify(point)],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let stderr = ''
    proc.stderr.on('data', (d) => {
      stderr += String(d)
    })
    proc.on('error', reject)
    proc.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL' && code !== 0) reject(new Error(`child exited ${code ?? signal}: ${stderr}`))
      else resolvePromise(signal === 'SIGKILL')
    })
  })
}

describe('crash safety of a dream in the worker thread: the process SIGKILLed, then dreamed again', () => {
  const points: { name: string; at: Partial<DreamProgressEvent> }[] = [
    { name: 'after chunking', at: { kind: 'phase-end', phase: 'chunk' } },
    { name: 'after 3 chunks', at: { kind: 'chunk', index: 3 } },
    { name: 'between sessions', at: { kind: 'session', index: 1 } },
  ]

  let expected: Awaited<ReturnType<typeof state>>
  beforeAll(async () => {
    const reference = tempRoot()
    const uninterrupted = await open(reference.root, 'process')
    try {
      await seed(uninterrupted)
      expect((await uninterrupted.dream({ budget: 1000 })).status).toBe('ok')
      expected = await state(uninterrupted, reference.root)
    } finally {
      await uninterrupted.close()
      reference.cleanup()
    }
  })

  for (const point of points) {
    it(`killed ${point.name}: the next dream ends with the memory of an uninterrupted run`, {
      timeout: 90_000,
    }, async () => {
      const { root, cleanup } = tempRoot()
      try {
        const seeded = await open(root, 'process')
        await seed(seeded)
        await seeded.close()
        expect(await dreamAndKill(root, point.at)).toBe(true)
        const memory = await open(root, 'worker')
        try {
          expect((await memory.dream({ budget: 1000 })).status).toBe('ok')
          expect(await state(memory, root)).toEqual(expected)
          const runs = await _storeOf(memory).dreamRuns.recent('default')
          expect(runs.map((r) => r.status)).toEqual(['ok', 'failed'])
          expect(runs[1]!.errors[0]).toMatch(/interrupted/)
        } finally {
          await memory.close()
        }
      } finally {
        cleanup()
      }
    })
  }
})
