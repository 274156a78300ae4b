import { createFakeEmbeddings, createRulesExtractor } from '@hymem/extraction'
import { describe, expect, it } from 'vitest'
import { DEFAULT_DREAM_CONFIG } from '../src/config'
import { DreamError } from '../src/errors'
import { dream } from '../src/run/dream'
import { dreamLockName } from '../src/run/lock'
import { messageText } from '../src/steps/embed-messages'
import type { DreamOptions } from '../src/types'
import {
  allEvidence,
  conversation,
  dreamWithRules,
  graphSnapshot,
  logLines,
  openTestStore,
  tableCounts,
  useTestStore,
  WS,
} from './harness'

const TURNS = Array.from({ length: 6 }, (_, i) => [
  ['user', `The service${i} depends on redis and uses postgres.`] as const,
  ['user', 'ok'] as const,
]).flat()

describe('the dream runner', () => {
  const t = useTestStore()
  const run = (extra: Partial<DreamOptions> = {}) => dreamWithRules(t, extra)

  it('exports frozen §9 defaults', () => {
    expect(Object.isFrozen(DEFAULT_DREAM_CONFIG)).toBe(true)
    expect(DEFAULT_DREAM_CONFIG).toMatchObject({
      salienceMinChars: 15,
      decayWindowDays: 30,
      decayFactor: 0.9,
      retractThreshold: 0.15,
      profileMaxEntries: 16,
      insightsMaxEntries: 12,
      dreamBudget: 50,
      maxChunks: 50_000,
      retentionDays: 90,
      concurrency: 4,
    })
  })

  it('returns skipped: locked while another holder runs, and records it', async () => {
    const other = await t.store.runLock.acquire(dreamLockName(WS), 'someone-else')
    expect(other.acquired).toBe(true)
    const report = await run()
    expect(report).toMatchObject({ status: 'skipped', skipReason: 'locked', chunksProcessed: 0 })
    expect((await t.store.dreamRuns.recent(WS))[0]).toMatchObject({ status: 'skipped', skipReason: 'locked' })
    if (other.acquired) await other.lock.release()
    expect((await run()).status).toBe('ok')
  })

  it('spends at most the budget per cycle and reports what is pending', async () => {
    await logLines(t.store, 's1', conversation('2026-02-20T09:00:00.000Z', TURNS))
    const first = await run({ budget: 4 })
    expect([first.chunksCreated, first.chunksProcessed, first.chunksPending]).toEqual([6, 4, 2])
    const second = await run({ budget: 4 })
    expect([second.chunksCreated, second.chunksProcessed, second.chunksPending]).toEqual([0, 2, 0])
  })

  it('waits for its pace at the checkpoint after every chunk', async () => {
    await logLines(t.store, 's1', conversation('2026-02-20T09:00:00.000Z', TURNS))
    const order: string[] = []
    let release: (() => void) | null = null
    const running = run({
      onProgress: (e) => {
        if (e.kind === 'chunk') order.push('chunk')
      },
      pace: async () => {
        order.push('pace')
        // The first chunk's checkpoint is held until the test lets it go.
        if (order.filter((step) => step === 'chunk').length === 1 && !release)
          await new Promise<void>((resolve) => {
            release = resolve
          })
      },
    })
    while (!release) await new Promise((resolve) => setImmediate(resolve))
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve))
    expect(order.filter((step) => step === 'chunk')).toHaveLength(1)
    ;(release as () => void)()
    const report = await running
    expect(report.status).toBe('ok')
    expect(report.chunksProcessed).toBe(6)
    const chunkSteps = order.flatMap((step, i) => (step === 'chunk' ? [i] : []))
    for (let k = 1; k < chunkSteps.length; k++)
      expect(order.slice(chunkSteps[k - 1], chunkSteps[k])).toContain('pace')
  })

  it('stops between chunks when aborted, keeps what it committed, and the next cycle finishes the job', async () => {
    await logLines(t.store, 's1', conversation('2026-02-20T09:00:00.000Z', TURNS))
    const controller = new AbortController()
    const aborted = await run({
      signal: controller.signal,
      onProgress: (e) => {
        if (e.kind === 'chunk' && e.index === 2) controller.abort()
      },
    })
    expect(aborted).toMatchObject({ status: 'aborted', chunksProcessed: 2, chunksPending: 4 })
    expect((await t.store.dreamRuns.recent(WS))[0]).toMatchObject({ status: 'aborted', chunksProcessed: 2 })
    const resumed = await run()
    expect(resumed).toMatchObject({ status: 'ok', chunksProcessed: 4 })

    const reference = openTestStore()
    try {
      await logLines(reference.store, 's1', conversation('2026-02-20T09:00:00.000Z', TURNS))
      await dream({
        store: reference.store,
        workspaceId: WS,
        extractor: createRulesExtractor(),
        markdown: reference.markdown,
      })
      expect(await graphSnapshot(t.store)).toEqual(await graphSnapshot(reference.store))
      expect(await tableCounts(t.store)).toEqual(await tableCounts(reference.store))
    } finally {
      await reference.cleanup()
    }
  })

  it('returns aborted at once for an already aborted signal, without touching the data', async () => {
    await logLines(t.store, 's1', conversation('2026-02-20T09:00:00.000Z', TURNS))
    const report = await run({ signal: AbortSignal.abort() })
    expect(report.status).toBe('aborted')
    expect((await tableCounts(t.store)).chunks).toBe(0)
  })

  it('refuses bad options with a DreamError before writing anything', async () => {
    const bad: Partial<DreamOptions>[] = [
      { workspaceId: '' },
      { budget: -1 },
      { budget: 1.5 },
      { concurrency: 0 },
      { config: { retractThreshold: Number.NaN } },
      { markdown: { userMdPath: '', memoryMdPath: 'x' } },
    ]
    for (const options of bad) {
      const error = await run(options).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(DreamError)
      expect((error as DreamError).code).toBe('INVALID_INPUT')
    }
    expect(await t.store.dreamRuns.recent(WS)).toEqual([])
  })

  it('embeds only new or changed texts and reuses edge vectors by triple text', async () => {
    const embeddings = createFakeEmbeddings({ dimensions: 8 })
    await logLines(t.store, 's1', conversation('2026-02-20T09:00:00.000Z', TURNS.slice(0, 4)))
    const first = await run({ embeddings })
    expect(first.counts.embedded_chunks).toBe(2)
    const texts = embeddings.textsEmbedded
    const again = await run({ embeddings })
    expect(embeddings.textsEmbedded).toBe(texts)
    expect(again.counts.embedded_chunks ?? 0).toBe(0)
    // Derived edges are recreated with new ids each cycle: their vectors come from the text cache.
    const derivedIds = await t.store.edges.listDerivedIds(WS)
    const indexed = await t.store.vectors.textHashes('edges', WS, derivedIds)
    expect(indexed.size).toBe(derivedIds.length)
  })

  it('embeds every message once as "<peer>: <content>", at most messageEmbedBudget per cycle', async () => {
    const embeddings = createFakeEmbeddings({ dimensions: 8 })
    await logLines(t.store, 's1', conversation('2026-02-20T09:00:00.000Z', TURNS.slice(0, 5)))
    const off = await run({ embeddings, config: { messageEmbedBudget: 0 } })
    expect(off.counts.embedded_messages ?? 0).toBe(0)
    const first = await run({ embeddings, config: { messageEmbedBudget: 3, embedBatchSize: 2 } })
    expect(first.counts.embedded_messages).toBe(3)
    const second = await run({ embeddings })
    expect(second.counts.embedded_messages).toBe(2)
    expect((await run({ embeddings })).counts.embedded_messages ?? 0).toBe(0)
    const messages = (await t.store.messages.listBySession(WS, 's1')).items
    const hashes = await t.store.vectors.textHashes(
      'messages',
      WS,
      messages.map((m) => m.id),
    )
    expect(hashes.size).toBe(5)
    const [first5] = messages
    const [vector] = await embeddings.embed([messageText(first5!)])
    const nearest = await t.store.vectors.nearest('messages', vector!, {
      workspaceId: WS,
      k: 1,
      model: embeddings.model,
    })
    expect(nearest[0]?.id).toBe(first5!.id)
  })

  it('skips malformed items from a custom extractor instead of failing the chunk forever', async () => {
    await logLines(t.store, 's1', conversation('2026-02-20T09:00:00.000Z', TURNS.slice(0, 2)))
    const rules = createRulesExtractor()
    const sloppy = {
      ...rules,
      name: 'sloppy',
      extractFacts: async () => ({
        triples: [
          { subject: 'api', predicate: 'loves', object: 'redis', polarity: 1 },
          { subject: 'api', predicate: 'uses', object: 'redis', polarity: 0 },
          {
            subject: 'api',
            predicate: 'uses',
            object: 'redis',
            polarity: 1,
            evidenceText: 'x'.repeat(10_000),
          },
        ] as never,
        markers: [
          { kind: 'mood', statement: 'User is sad.' },
          { kind: 'style', statement: ' ' },
        ] as never,
        entityTypes: [{ entity: 'redis', type: 42 }] as never,
        dropped: { triples: 0, markers: 0 },
        usage: { promptTokens: 0, completionTokens: 0 },
        llmCalls: 0,
      }),
    }
    const report = await run({ extractor: sloppy })
    expect(report).toMatchObject({ status: 'ok', chunksProcessed: 1, chunksPending: 0 })
    expect(report.counts.invalidItemsSkipped).toBe(5)
    expect((await graphSnapshot(t.store)).map((e) => e.triple)).toEqual(['api uses redis'])
    const [evidence] = await allEvidence(t.store)
    expect(evidence?.evidenceText).toHaveLength(2000)
  })

  it('records a failed step in the report and the audit row', async () => {
    await logLines(t.store, 's1', conversation('2026-02-20T09:00:00.000Z', TURNS.slice(0, 2)))
    const extractor = {
      ...createRulesExtractor(),
      name: 'broken',
      extractFacts: () => Promise.reject(new Error('model down')),
    }
    const report = await run({ extractor })
    expect(report.status).toBe('failed')
    expect(report.errors[0]).toMatch(/model down/)
    expect((await t.store.dreamRuns.recent(WS))[0]).toMatchObject({ status: 'failed', extractor: 'broken' })
  })
})
