import { createRulesExtractor } from '@hymem/extraction'
import { describe, expect, it } from 'vitest'
import { dream } from '../src/run/dream'
import { dreamLockName } from '../src/run/lock'
import { createDreamScheduler, type DreamSchedulerOptions } from '../src/scheduler'
import type { DreamReport } from '../src/types'
import { conversation, logLines, useTestStore, WS } from './harness'

describe('createDreamScheduler', () => {
  const t = useTestStore()

  const make = (extra: Partial<DreamSchedulerOptions> = {}) => {
    const reports: DreamReport[] = []
    let reported: () => void = () => undefined
    const firstReport = new Promise<void>((resolve) => {
      reported = resolve
    })
    let active = 0
    let peak = 0
    const scheduler = createDreamScheduler({
      open: () => t.store.fork(),
      workspaceId: WS,
      dreamOptions: () => ({
        extractor: createRulesExtractor(),
        markdown: t.markdown,
        onProgress: (e) => {
          if (e.kind === 'phase-start' && e.phase === 'chunk') peak = Math.max(peak, ++active)
          if (e.kind === 'phase-end' && e.phase === 'embed') active--
        },
      }),
      onDreamFinished: (r) => {
        reports.push(r)
        reported()
      },
      ...extra,
    })
    return { scheduler, reports, firstReport, peak: () => peak }
  }

  it('runs on a forked connection and collapses kicks within the cooldown into one trailing run', async () => {
    await logLines(
      t.store,
      's1',
      conversation('2026-02-20T09:00:00.000Z', [['user', 'The api depends on redis, always.']]),
    )
    const { scheduler, reports, firstReport } = make({ cooldownMs: 60_000 })
    for (let i = 0; i < 5; i++) scheduler.kick()
    expect(scheduler.running).toBe(true)
    await firstReport
    expect(reports.map((r) => r.status)).toEqual(['ok'])
    expect(reports[0]!.chunksProcessed).toBe(1)
    // The trailing run is due only after the cooldown; close() cancels it.
    await scheduler.close()
    expect(reports).toHaveLength(1)
    expect((await t.store.dreamRuns.recent(WS)).map((r) => r.status)).toEqual(['ok'])
  })

  it('never runs two cycles at once and runs the trailing cycle after the cooldown', async () => {
    const { scheduler, reports, peak } = make({ cooldownMs: 30 })
    scheduler.kick()
    scheduler.kick()
    scheduler.kick()
    await scheduler.idle()
    await logLines(
      t.store,
      's1',
      conversation('2026-02-20T09:00:00.000Z', [['user', 'The worker depends on redis, always.']]),
    )
    scheduler.kick()
    await scheduler.idle()
    await scheduler.close()
    expect(peak()).toBe(1)
    expect(reports.map((r) => r.status)).toEqual(['ok', 'ok', 'ok'])
    expect(reports.reduce((n, r) => n + r.chunksProcessed, 0)).toBe(1)
    const statuses = (await t.store.dreamRuns.recent(WS)).map((r) => r.status)
    expect(statuses).not.toContain('skipped')
  })

  it('can be kicked from inside a write transaction on the main connection without a lock wait', async () => {
    const { scheduler, reports } = make({ cooldownMs: 0 })
    await t.store.transaction(async (tx) => {
      scheduler.kick()
      await tx.workspaces.getOrCreate('other')
    })
    await scheduler.idle()
    await scheduler.close()
    expect(reports.map((r) => r.status)).toEqual(['ok'])
  })

  it('reports a cycle that throws to onError and keeps going', async () => {
    const errors: unknown[] = []
    const { scheduler } = make({
      cooldownMs: 0,
      dreamOptions: () => ({
        extractor: createRulesExtractor(),
        markdown: { userMdPath: '', memoryMdPath: '' },
      }),
      onError: (e) => errors.push(e),
    })
    scheduler.kick()
    await scheduler.idle()
    await scheduler.close()
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('runs cycles through `run` when they run elsewhere, one at a time, reporting failures', async () => {
    const ran: string[] = []
    const errors: unknown[] = []
    let active = 0
    let peak = 0
    const scheduler = createDreamScheduler({
      workspaceId: WS,
      cooldownMs: 0,
      run: async (workspaceId) => {
        peak = Math.max(peak, ++active)
        await new Promise((resolve) => setImmediate(resolve))
        active--
        ran.push(workspaceId)
        if (workspaceId === 'broken') throw new Error('the worker crashed')
        return dream({ store: t.store, workspaceId, extractor: createRulesExtractor(), markdown: t.markdown })
      },
      onError: (error) => errors.push(error),
    })
    scheduler.kick()
    scheduler.kick('broken')
    scheduler.kick('other')
    await scheduler.idle()
    await scheduler.close()
    expect(ran).toEqual([WS, 'broken', 'other'])
    expect(peak).toBe(1)
    expect(errors).toMatchObject([{ message: 'the worker crashed' }])
  })
  it('tries again after a cycle another holder of the dream lock made skip, and then does the work', async () => {
    await logLines(
      t.store,
      's1',
      conversation('2026-02-20T09:00:00.000Z', [['user', 'The api depends on redis, always.']]),
    )
    const other = await t.store.runLock.acquire(dreamLockName(WS), 'another-server')
    if (!other.acquired) throw new Error('the test could not take the dream lock')
    const { scheduler, reports, firstReport } = make({ cooldownMs: 0, lockedRetryMs: 20 })
    scheduler.kick()
    await firstReport
    expect(reports.map((r) => [r.status, r.skipReason])).toEqual([['skipped', 'locked']])
    await other.lock.release()
    await scheduler.idle()
    await scheduler.close()
    const last = reports.at(-1)!
    expect(last).toMatchObject({ status: 'ok', chunksProcessed: 1 })
    for (const report of reports.slice(0, -1)) expect(report.status).toBe('skipped')
  })

  it('follows a cycle that leaves chunks pending with the next one at once, cooldown or not', async () => {
    for (const session of ['s1', 's2', 's3']) {
      await logLines(
        t.store,
        session,
        conversation('2026-02-20T09:00:00.000Z', [['user', `The ${session} api depends on redis, always.`]]),
      )
    }
    const reports: DreamReport[] = []
    const budgeted = createDreamScheduler({
      open: () => t.store.fork(),
      workspaceId: WS,
      cooldownMs: 60_000,
      dreamOptions: () => ({ extractor: createRulesExtractor(), markdown: t.markdown, budget: 1 }),
      onDreamFinished: (r) => reports.push(r),
    })
    const before = Date.now()
    budgeted.kick()
    expect(budgeted.scheduled()).toEqual([])
    expect(budgeted.runningFor).toEqual([WS])
    await budgeted.idle()
    expect(reports.map((r) => [r.chunksProcessed, r.chunksPending])).toEqual([
      [1, 2],
      [1, 1],
      [1, 0],
    ])
    // Once nothing is pending, a new kick waits out the cooldown: the next cycle is listed with its time.
    budgeted.kick()
    const [next] = budgeted.scheduled()
    expect(next?.workspaceId).toBe(WS)
    expect(next!.dueAt).toBeGreaterThanOrEqual(before + 60_000 - 1)
    await budgeted.close()
    expect(budgeted.scheduled()).toEqual([])
  })
})
