import type { Store } from '@hymem/core-store'
import { createHyMem, type HyMem, openHyMemStore } from 'hymem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from '../../test/harness'
import { dreamUntilStopped } from './worker-loop'

describe('dreamUntilStopped', () => {
  let memory: HyMem
  let store: Store
  let cleanup: () => void
  beforeEach(async () => {
    const dir = tempDir()
    cleanup = dir.cleanup
    store = await openHyMemStore({ root: dir.dir })
    memory = await createHyMem({ root: dir.dir, store, embeddings: null, dream: { dreamBudget: 1 } })
  })
  afterEach(async () => {
    await memory.close()
    await store.close()
    cleanup()
  })

  async function chunks(workspaceId: string, sessions: number): Promise<void> {
    for (let s = 0; s < sessions; s++) {
      await memory.logMessages(
        `s${s}`,
        [
          {
            peerId: 'user',
            role: 'user',
            content: `In ${workspaceId}, the api-${s} service depends on redis.`,
          },
        ],
        { workspaceId },
      )
    }
  }

  it('takes workspaces in turn, one budget each, until none has work', async () => {
    await chunks('busy', 4)
    await chunks('quiet', 1)
    await chunks('small', 2)
    const order: string[] = []
    const dreams = await dreamUntilStopped(memory, {
      signal: new AbortController().signal,
      idleMs: 10,
      busyMs: 10,
      stalledMs: 60_000,
      once: true,
      start: () => 0,
      onDream: (report) => {
        expect(report.status).toBe('ok')
        order.push(`${report.workspaceId}:${report.chunksProcessed}`)
      },
    })
    // The busy workspace gets one chunk per turn, never all four before the others.
    expect(order).toEqual(['busy:1', 'quiet:1', 'small:1', 'busy:1', 'small:1', 'busy:1', 'busy:1'])
    expect(dreams).toBe(order.length)
    expect(await memory.queue.pending()).toEqual([])
  })

  it('stops at once when its signal aborts, and waits while idle', async () => {
    const stop = new AbortController()
    const idle = dreamUntilStopped(memory, {
      signal: stop.signal,
      idleMs: 60_000,
      busyMs: 60_000,
      stalledMs: 60_000,
      once: false,
      onDream: () => undefined,
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    stop.abort()
    expect(await idle).toBe(0)
  })

  it('looks again soon, not after the idle wait, while another process dreams the only pending workspace', async () => {
    await chunks('shared', 1)
    const other = await store.runLock.acquire('dream:shared', 'another-worker')
    if (!other.acquired) throw new Error('the test could not take the lock')
    setTimeout(() => void other.lock.release(), 150)
    const started = performance.now()
    const reports: string[] = []
    const dreams = await dreamUntilStopped(memory, {
      signal: new AbortController().signal,
      idleMs: 60_000,
      busyMs: 20,
      stalledMs: 60_000,
      once: true,
      onDream: (report) => reports.push(`${report.workspaceId}:${report.status}:${report.chunksProcessed}`),
    })
    expect(reports).toEqual(['shared:ok:1'])
    expect(dreams).toBe(1)
    expect(performance.now() - started).toBeLessThan(10_000)
  })
})
