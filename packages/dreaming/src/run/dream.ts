import { _isAbort } from '../errors'
import { chunkNewMessages } from '../steps/chunk'
import { decayEdges } from '../steps/decay'
import { embedAll } from '../steps/embed'
import { countPending, extractPending } from '../steps/extract'
import { recomputeInferences } from '../steps/inference'
import { refreshInsights } from '../steps/insights'
import { splitLongMessages } from '../steps/passages'
import { consolidateProfile } from '../steps/profile'
import { reattributeSpeakerFacts } from '../steps/reattribute'
import { applyRetention } from '../steps/retention'
import { processSessions } from '../steps/sessions'
import { indexTopics } from '../steps/topics'
import type { DreamOptions, DreamPhase, DreamReport } from '../types'
import { checkAbort, errorText, newTally, type RunContext } from './context'
import { acquireDreamLock, defaultHolderId } from './lock'
import { resolveOptions } from './options'

const PHASES: readonly [DreamPhase, (ctx: RunContext) => Promise<void>][] = [
  ['chunk', chunkNewMessages],
  ['extract', extractThenReattribute],
  ['sessions', processSessions],
  ['profile', consolidateProfile],
  ['insights', refreshInsights],
  ['decay', decayEdges],
  ['inference', recomputeInferences],
  // Insights again, so MEMORY.md reflects the decayed and inferred graph.
  ['insights', refreshInsights],
  ['retention', applyRetention],
  ['passages', splitLongMessages],
  ['topics', indexTopics],
  ['embed', embedAll],
]

/** Phase 1: the pending chunks, then the facts their re-read moved from `user` / `team` to a peer. */
async function extractThenReattribute(ctx: RunContext): Promise<void> {
  await extractPending(ctx)
  await reattributeSpeakerFacts(ctx)
}

/**
 * Runs one dreaming cycle over a workspace: chunk new messages, extract facts, episodes, procedures and
 * summaries, consolidate the profile and insights into USER.md and MEMORY.md, decay, infer, retain and
 * embed. Holds the workspace's advisory lock; a concurrent cycle returns `skipped` (reason `locked`). Every
 * cycle leaves a `dream_runs` row. Never throws for a failing step: the report says what failed.
 *
 * @example
 * const report = await dream({
 *   store, workspaceId: 'default', extractor: createRulesExtractor(),
 *   markdown: { userMdPath: `${root}/USER.md`, memoryMdPath: `${root}/MEMORY.md` },
 * })
 * if (report.status !== 'ok') console.error(report.errors)
 */
export async function dream(options: DreamOptions): Promise<DreamReport> {
  const { config, budget, concurrency } = resolveOptions(options)
  const { store, workspaceId, extractor } = options
  const base = { workspaceId, extractor: extractor.name, promptVersion: extractor.promptVersion }
  const lock = await acquireDreamLock(store, workspaceId, options.holderId ?? defaultHolderId())
  if (!lock) {
    const runId = await store.dreamRuns.recordSkip(workspaceId, 'locked')
    return { ...emptyReport(base, runId), status: 'skipped', skipReason: 'locked' }
  }
  const started = performance.now()
  const tally = newTally()
  const timings: Record<string, number> = {}
  const cacheHitsBefore = options.llmCache?.hits ?? 0
  let runId = 0
  let status: DreamReport['status'] = 'ok'
  let pending = 0
  const ctx: RunContext = {
    store,
    workspaceId,
    extractor,
    embeddings: options.embeddings,
    config,
    budget,
    concurrency,
    markdown: options.markdown,
    signal: options.signal,
    pace: options.pace,
    emit: (event) => {
      // A throwing listener must not break the cycle; it is reported like any other error.
      try {
        options.onProgress?.(event)
      } catch (error) {
        if (tally.errors.length < 20) tally.errors.push(`onProgress: ${errorText(error)}`)
      }
    },
    tally,
  }
  const heartbeat = setInterval(() => {
    lock.heartbeat().then(
      (held) => {
        if (!held) tally.errors.push('the dream lock was taken over while this cycle ran')
      },
      (error: unknown) => tally.errors.push(`lock heartbeat: ${errorText(error)}`),
    )
  }, config.lockHeartbeatMs)
  heartbeat.unref()
  try {
    await closeInterruptedRuns(ctx)
    runId = await store.dreamRuns.start(workspaceId, {
      extractor: extractor.name,
      promptVersion: extractor.promptVersion,
    })
    try {
      for (const [phase, step] of PHASES) {
        checkAbort(ctx)
        ctx.emit({ kind: 'phase-start', phase })
        const t0 = performance.now()
        const before = { ...tally.counts }
        await step(ctx)
        const ms = performance.now() - t0
        timings[phase] = (timings[phase] ?? 0) + ms
        ctx.emit({ kind: 'phase-end', phase, ms, counts: delta(before, tally.counts) })
      }
      const attempted = (tally.counts.chunkErrors ?? 0) + tally.chunksProcessed
      if (attempted > 0 && tally.chunksProcessed === 0) status = 'failed'
    } catch (error) {
      if (_isAbort(error, options.signal)) status = 'aborted'
      else {
        status = 'failed'
        tally.errors.push(errorText(error))
      }
    }
    pending = await countPending(ctx).catch(() => 0)
    timings.total = performance.now() - started
    const cacheHits = (options.llmCache?.hits ?? 0) - cacheHitsBefore
    if (options.llmCache) tally.counts.llmCacheHits = cacheHits
    tally.llmCalls = Math.max(0, tally.llmCalls - cacheHits)
    await store.dreamRuns.finish(workspaceId, runId, {
      status,
      chunksCreated: tally.chunksCreated,
      chunksProcessed: tally.chunksProcessed,
      edgesUpserted: tally.edgesUpserted,
      llmCalls: tally.llmCalls,
      promptTokens: tally.promptTokens,
      completionTokens: tally.completionTokens,
      counts: tally.counts,
      timings,
      errors: tally.errors,
    })
    // Query caches in every process over this database drop what the cycle changed.
    await store.graphGenerations.advance(workspaceId)
  } finally {
    clearInterval(heartbeat)
    await lock.release()
  }
  return {
    ...base,
    status,
    skipReason: null,
    runId,
    chunksCreated: tally.chunksCreated,
    chunksProcessed: tally.chunksProcessed,
    chunksPending: pending,
    edgesUpserted: tally.edgesUpserted,
    llmCalls: tally.llmCalls,
    promptTokens: tally.promptTokens,
    completionTokens: tally.completionTokens,
    counts: { ...tally.counts },
    timings,
    errors: [...tally.errors],
  }
}

/** Runs left `running` by a crashed process: holding the lock proves they are dead. */
async function closeInterruptedRuns(ctx: RunContext): Promise<void> {
  const rows = await ctx.store.dreamRuns.listRunning(ctx.workspaceId)
  for (const row of rows) {
    await ctx.store.dreamRuns.finish(ctx.workspaceId, row.id, {
      status: 'failed',
      errors: ['interrupted: the process ended mid-cycle'],
    })
  }
  if (rows.length > 0) ctx.tally.counts.interruptedRunsClosed = rows.length
}

function delta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [k, v] of Object.entries(after)) if (v !== (before[k] ?? 0)) out[k] = v - (before[k] ?? 0)
  return out
}

function emptyReport(
  base: { workspaceId: string; extractor: string; promptVersion: string },
  runId: number,
): DreamReport {
  return {
    ...base,
    status: 'ok',
    skipReason: null,
    runId,
    chunksCreated: 0,
    chunksProcessed: 0,
    chunksPending: 0,
    edgesUpserted: 0,
    llmCalls: 0,
    promptTokens: 0,
    completionTokens: 0,
    counts: {},
    timings: {},
    errors: [],
  }
}
