import { describe, expect, it } from 'vitest'
import { expectStoreError, manualClock, useTempStores } from '../../test/store-harness'

describe('dream runs repository', () => {
  const stores = useTempStores()

  it('records a run from start to finish with its counters', async () => {
    const { clock, advance } = manualClock()
    const store = stores.open({ clock })
    const id = await store.dreamRuns.start('w', { extractor: 'openai:gpt-4o-mini', promptVersion: 'v3' })
    advance(5000)
    await store.dreamRuns.finish(id, {
      status: 'ok',
      chunksCreated: 4,
      chunksProcessed: 3,
      edgesUpserted: 9,
      llmCalls: 3,
      promptTokens: 1200,
      completionTokens: 300,
      counts: { episodes: 1 },
      timings: { extract: 4.2 },
      errors: ['chunk 7: invalid JSON'],
    })
    expect(await store.dreamRuns.recent('w')).toEqual([
      {
        id,
        workspaceId: 'w',
        status: 'ok',
        skipReason: null,
        extractor: 'openai:gpt-4o-mini',
        promptVersion: 'v3',
        chunksCreated: 4,
        chunksProcessed: 3,
        edgesUpserted: 9,
        llmCalls: 3,
        promptTokens: 1200,
        completionTokens: 300,
        counts: { episodes: 1 },
        timings: { extract: 4.2 },
        errors: ['chunk 7: invalid JSON'],
        startedAt: '2026-03-01T10:00:00.000Z',
        finishedAt: '2026-03-01T10:00:05.000Z',
      },
    ])
  })

  it('records skips and lists the most recent first, per workspace', async () => {
    const { clock, advance } = manualClock()
    const store = stores.open({ clock })
    const running = await store.dreamRuns.start('w', { extractor: 'x', promptVersion: 'v1' })
    advance(1000)
    const skipped = await store.dreamRuns.recordSkip('w', 'locked')
    await store.dreamRuns.recordSkip('other', 'locked')
    const recent = await store.dreamRuns.recent('w', 10)
    expect(recent.map((r) => [r.id, r.status, r.skipReason])).toEqual([
      [skipped, 'skipped', 'locked'],
      [running, 'running', null],
    ])
    expect(recent[0]?.finishedAt).toBe('2026-03-01T10:00:01.000Z')
    expect(await store.dreamRuns.recent('w', 1)).toHaveLength(1)
  })

  it('refuses unknown runs and invalid outcomes', async () => {
    const store = stores.open()
    const id = await store.dreamRuns.start('w', { extractor: 'x', promptVersion: 'v1' })
    await expectStoreError(store.dreamRuns.finish(9999, { status: 'ok' }), 'NOT_FOUND')
    await expectStoreError(store.dreamRuns.finish(id, { status: 'running' as 'ok' }), 'INVALID_INPUT')
    await expectStoreError(store.dreamRuns.finish(id, { status: 'ok', llmCalls: -1 }), 'INVALID_INPUT')
    await expectStoreError(
      store.dreamRuns.finish(id, { status: 'ok', timings: { a: Number.NaN } }),
      'INVALID_INPUT',
    )
    await expectStoreError(store.dreamRuns.recordSkip('w', ''), 'INVALID_INPUT')
    expect((await store.dreamRuns.recent('w'))[0]?.status).toBe('running')
  })

  it('lists the runs still marked running', async () => {
    const store = stores.open()
    const first = await store.dreamRuns.start('w', { extractor: 'x', promptVersion: 'v1' })
    const done = await store.dreamRuns.start('w', { extractor: 'x', promptVersion: 'v1' })
    await store.dreamRuns.finish(done, { status: 'ok' })
    await store.dreamRuns.start('other', { extractor: 'x', promptVersion: 'v1' })
    expect((await store.dreamRuns.listRunning('w')).map((r) => [r.id, r.status])).toEqual([
      [first, 'running'],
    ])
  })
})
