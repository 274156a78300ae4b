import type { Store } from '@hymem/core-store'
import {
  createDreamScheduler,
  type DreamProgressEvent,
  type DreamReport,
  type DreamScheduler,
  type LLMResponseCache,
  dream as runDream,
  type ScheduledDreamOptions,
} from '@hymem/dreaming'
import type { EmbeddingClient, Extractor } from '@hymem/extraction'
import type { QueryEngine } from '@hymem/query'
import { _asHyMemError, HyMemError } from '../errors'
import type { HyMemLog } from '../log'
import { DreamActivity, type TrackedDream } from '../runtime/dream-activity'
import type { BackgroundDreamStatus, DreamRunnerStatus } from '../runtime/types'
import type { DreamWorkerHost } from './worker-host'

/** What the facade's dreams need: where they run, what they read and write, and whom they tell. */
export interface DreamRunnerParts {
  readonly store: Store
  readonly workspaceId: string
  readonly extractor: Extractor
  readonly embeddings: EmbeddingClient | null
  readonly llmCache: LLMResponseCache | null
  readonly engine: QueryEngine
  readonly log: HyMemLog
  readonly dreamConfig: ScheduledDreamOptions['config']
  readonly dreamCooldownMs: number
  /** USER.md / MEMORY.md of a workspace; null when the rows alone are the truth (no files). */
  readonly markdownFiles: (workspaceId: string) => { userMdPath: string; memoryMdPath: string } | null
  readonly dreamWorker: DreamWorkerHost | null
  readonly ownsDreamWorker: boolean
}

/** Per-call options of {@link DreamRunner.run}. */
export interface DreamCall {
  readonly budget?: number
  readonly signal?: AbortSignal
  readonly onProgress?: (event: DreamProgressEvent) => void
}

/**
 * Runs the facade's dreams, asked for (`run`) or in the background (`schedule`), in the dream worker when
 * there is one, else on this thread; keeps what runs for `status()`, and drops the query caches and logs
 * each report when a cycle ends.
 */
export class DreamRunner {
  readonly #parts: DreamRunnerParts
  readonly #activity = new DreamActivity()
  #scheduler: DreamScheduler | null = null
  #foreground = 0

  constructor(parts: DreamRunnerParts) {
    this.#parts = parts
  }

  /** Whether a cycle runs, asked for or in the background. */
  get running(): boolean {
    return (this.#scheduler?.running ?? false) || this.#foreground > 0
  }

  /** The options a cycle of `workspaceId` runs with on this thread. */
  options(workspaceId: string): ScheduledDreamOptions {
    const { extractor, llmCache, embeddings, dreamConfig } = this.#parts
    return {
      extractor,
      ...(llmCache ? { llmCache } : {}),
      ...(embeddings ? { embeddings } : {}),
      markdown: this.#parts.markdownFiles(workspaceId),
      ...(dreamConfig ? { config: dreamConfig } : {}),
    }
  }

  async run(workspaceId: string, call: DreamCall): Promise<DreamReport> {
    const started = performance.now()
    const worker = this.#parts.dreamWorker
    this.#foreground++
    const tracked = worker ? null : this.#activity.start(workspaceId)
    const cycle = worker
      ? worker.dream(workspaceId, call)
      : runDream({
          ...this.options(workspaceId),
          store: this.#parts.store,
          workspaceId,
          ...call,
          onProgress: (event) => {
            tracked?.progress(event)
            call.onProgress?.(event)
          },
        })
    const report = await cycle
      .catch((error: unknown) => {
        throw _asHyMemError(error)
      })
      .finally(() => {
        this.#foreground--
        tracked?.end()
      })
    this.#finished(report, false, performance.now() - started)
    return report
  }

  schedule(workspaceId: string): void {
    this.#scheduler ??= this.#createScheduler()
    this.#scheduler.kick(workspaceId)
  }

  background(workspaceId: string): BackgroundDreamStatus {
    const next = this.#scheduler?.scheduled().find((cycle) => cycle.workspaceId === workspaceId)
    return {
      running: this.#scheduler?.runningFor.includes(workspaceId) ?? false,
      dueAt: next ? new Date(next.dueAt).toISOString() : null,
    }
  }

  status(closed: boolean): DreamRunnerStatus {
    const worker = this.#parts.dreamWorker
    if (worker) return worker.status()
    return {
      mode: 'process',
      state: closed ? 'closed' : this.#activity.size > 0 ? 'dreaming' : 'idle',
      threadId: null,
      crashes: 0,
      lastCrash: null,
      running: this.#activity.list(),
    }
  }

  /** In a worker, cycles stop at their next checkpoint; on this thread the scheduler waits for its cycle. */
  async close(): Promise<void> {
    const scheduler = this.#scheduler?.close()
    if (this.#parts.ownsDreamWorker) await this.#parts.dreamWorker?.close()
    await scheduler
  }

  #createScheduler(): DreamScheduler {
    const worker = this.#parts.dreamWorker
    let tracked: TrackedDream | null = null
    const ended = () => {
      tracked?.end()
      tracked = null
    }
    const common = {
      workspaceId: this.#parts.workspaceId,
      // The cooldown throttles real work, so it runs on wall-clock time even when `clock` simulates another.
      cooldownMs: this.#parts.dreamCooldownMs,
      onDreamFinished: (report: DreamReport) => {
        ended()
        this.#finished(report, true, report.timings.total ?? 0)
      },
      onError: (error: unknown, workspaceId: string) => {
        ended()
        this.#parts.log({
          kind: 'dream-failed',
          level: 'error',
          workspaceId,
          background: true,
          message: (error as Error)?.message ?? String(error),
        })
        // The crashed cycle's work is still pending: ask again (after the cooldown and the restart).
        if (error instanceof HyMemError && error.code === 'DREAM_WORKER') this.#scheduler?.kick(workspaceId)
      },
    }
    if (worker) return createDreamScheduler({ ...common, run: (workspaceId) => worker.dream(workspaceId) })
    return createDreamScheduler({
      ...common,
      open: () => this.#parts.store.fork(),
      dreamOptions: (workspaceId) => {
        const current = this.#activity.start(workspaceId)
        tracked = current
        return { ...this.options(workspaceId), onProgress: (event) => current.progress(event) }
      },
    })
  }

  #finished(report: DreamReport, background: boolean, ms: number): void {
    this.#parts.engine.invalidateQueryCaches(report.workspaceId)
    this.#parts.log({
      kind: 'dream',
      level: report.status === 'ok' || report.status === 'skipped' ? 'info' : 'warn',
      workspaceId: report.workspaceId,
      background,
      status: report.status,
      chunksProcessed: report.chunksProcessed,
      edgesUpserted: report.edgesUpserted,
      errors: report.errors.length,
      ms,
    })
  }
}
