import type { DreamProgressEvent } from '@hymem/dreaming'
import { afterEach, describe, expect, it } from 'vitest'
import { tempRoot } from '../../test/harness'
import { configFromEnv } from '../config/config-from-env'
import { createHyMemFromConfig } from '../config/create-from-config'
import { createHyMem } from '../create-hymem'
import type { HyMemInstance } from '../hymem'
import { _storeOf } from '../hymem'
import type { HyMemLogEvent } from '../log'
import type { HyMem } from '../types'

const opened: { memory: HyMem; cleanup: () => void }[] = []
afterEach(async () => {
  for (const { memory, cleanup } of opened.splice(0)) {
    await memory.close()
    cleanup()
  }
})

/** A facade over a temp root whose dreams run in a worker thread (rules extractor, fake embeddings). */
async function workerMemory() {
  const { root, cleanup } = tempRoot()
  const { config, errors } = configFromEnv({ HOME: root, HYMEM_ROOT: root, HYMEM_EMBEDDING_PROVIDER: 'fake' })
  expect(errors).toEqual([])
  const events: HyMemLogEvent[] = []
  const memory = await createHyMemFromConfig(config, { dreamIn: 'worker', log: (e) => events.push(e) })
  opened.push({ memory, cleanup })
  return { memory, events, config }
}

/** `sessions` sessions of fact-bearing turns, each salient turn its own chunk. */
async function logFacts(memory: HyMem, sessions: number, turns: number) {
  const tools = ['redis', 'postgres', 'kafka', 'nginx', 'docker', 'terraform']
  for (let s = 0; s < sessions; s++) {
    await memory.logMessages(
      `s${s}`,
      Array.from({ length: turns }, (_, i) => ({
        peerId: 'alice',
        content:
          i % 2 === 0
            ? `The svc${s}x${i} depends on ${tools[i % tools.length]} and uses ${tools[(i + 1) % 6]}.`
            : 'ok',
      })),
    )
  }
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('dreams in a worker thread', () => {
  it('runs the whole pipeline there, embedding included, and forwards its progress', async () => {
    const { memory, events } = await workerMemory()
    await logFacts(memory, 1, 6)
    expect(memory.runtime().dreams).toMatchObject({ mode: 'worker', state: 'stopped', threadId: null })
    const progress: DreamProgressEvent[] = []
    const report = await memory.dream({ onProgress: (e) => progress.push(e) })
    expect(report).toMatchObject({ status: 'ok', extractor: 'rules', chunksProcessed: 3, errors: [] })
    expect(report.counts.embedded_chunks).toBe(3)
    expect(progress.filter((e) => e.kind === 'chunk').map((e) => e.kind === 'chunk' && e.index)).toEqual([
      1, 2, 3,
    ])
    const facts = (await memory.augment('what does svc0x0 depend on?')).graphFacts
    expect(facts.map((f) => `${f.subject} ${f.predicate} ${f.object}`)).toContain('svc0x0 depends_on redis')
    const { dreams } = memory.runtime()
    expect(dreams).toMatchObject({ mode: 'worker', state: 'idle', crashes: 0, running: [] })
    expect(dreams.threadId).toBeGreaterThan(0)
    expect(events.filter((e) => e.kind === 'dream')).toMatchObject([{ background: false, status: 'ok' }])
  })

  it('dreams in the background through the worker, and reports it running meanwhile', async () => {
    const { memory, events } = await workerMemory()
    await logFacts(memory, 2, 4)
    memory.queue.schedule()
    expect((await memory.queue.backlog()).running).toBe(true)
    await waitFor(() => events.some((e) => e.kind === 'dream'))
    expect(events.find((e) => e.kind === 'dream')).toMatchObject({ background: true, status: 'ok' })
    expect(await memory.queue.backlog()).toMatchObject({
      pendingMessages: 0,
      pendingChunks: 0,
      running: false,
    })
  })

  it('survives the worker being killed mid-dream: reports it, restarts it, and the next dream finishes', async () => {
    const { memory, events } = await workerMemory()
    await logFacts(memory, 2, 300)
    const worker = (memory as HyMemInstance)._dreamWorker!
    let killed = false
    const dreaming = memory.dream({
      onProgress: (e) => {
        if (!killed && e.kind === 'chunk') {
          killed = true
          void worker.terminate()
        }
      },
    })
    await expect(dreaming).rejects.toMatchObject({ code: 'DREAM_WORKER' })
    // This thread keeps serving while the worker is down.
    await memory.log({ role: 'user', content: 'still here', sessionId: 'live' })
    expect((await _storeOf(memory).messages.count('default')) > 600).toBe(true)
    expect(events.filter((e) => e.kind === 'dream-worker')).toMatchObject([
      { level: 'error', event: 'crashed', restartInMs: 1000 },
    ])
    expect(memory.runtime().dreams).toMatchObject({ state: 'restarting', crashes: 1 })
    expect(memory.runtime().dreams.lastCrash?.message).toMatch(/exited with code/)
    await waitFor(() => memory.runtime().dreams.state !== 'restarting')
    expect(
      events.filter((e) => e.kind === 'dream-worker').map((e) => e.kind === 'dream-worker' && e.event),
    ).toEqual(['crashed', 'restarted'])
    const report = await memory.dream({ budget: 1000 })
    expect(report.status).toBe('ok')
    expect(await memory.queue.backlog()).toMatchObject({ pendingMessages: 0, pendingChunks: 0 })
    const runs = await _storeOf(memory).dreamRuns.recent('default')
    expect(runs.map((r) => r.status)).toEqual(['ok', 'failed'])
    expect(runs[1]!.errors[0]).toMatch(/interrupted/)
  })

  it('closes at the next checkpoint of a running dream, which keeps what it committed', async () => {
    const { memory } = await workerMemory()
    await logFacts(memory, 1, 400)
    let closing: Promise<void> | null = null
    const dreaming = memory.dream({
      budget: 1000,
      onProgress: (e) => {
        if (e.kind === 'chunk' && !closing) closing = memory.close()
      },
    })
    const report = await dreaming
    await closing
    expect(report.status).toBe('aborted')
    expect(report.chunksProcessed).toBeGreaterThan(0)
    expect(report.chunksProcessed).toBeLessThan(200)
    expect(memory.runtime().dreams.state).toBe('closed')
    await expect(memory.dream()).rejects.toMatchObject({ code: 'CLOSED' })
  })

  it('refuses options that cannot cross into the worker', async () => {
    const { root, cleanup } = tempRoot()
    try {
      const { config } = configFromEnv({ HOME: root, HYMEM_ROOT: root, HYMEM_EMBEDDING_PROVIDER: 'none' })
      await expect(
        createHyMem({ root, dreamIn: { worker: config }, clock: () => new Date() }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/custom clock/) })
      await expect(
        createHyMemFromConfig(config, { dreamIn: 'worker', clock: () => new Date() }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    } finally {
      cleanup()
    }
  })
})
