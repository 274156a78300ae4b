import type { DreamPhase } from '@hymem/dreaming'

/** A dream cycle in progress, as its progress events describe it. */
export interface RunningDream {
  readonly workspaceId: string
  /** The phase it is in; null before its first progress event. */
  readonly phase: DreamPhase | null
  /** Chunks extracted so far of this cycle's batch, once extraction has committed one. */
  readonly chunks: { readonly done: number; readonly total: number } | null
  /** ISO-8601 UTC (wall clock). */
  readonly startedAt: string
}

/** Where and how this facade's dreams run. */
export interface DreamRunnerStatus {
  /** `process`: on this thread; `worker`: in a worker thread with its own connection. */
  readonly mode: 'process' | 'worker'
  /**
   * `idle` / `dreaming`; a worker is also `stopped` (not started yet: it starts with the first dream),
   * `starting`, `restarting` (waiting out its back-off after a crash) or `closed`.
   */
  readonly state: 'stopped' | 'starting' | 'idle' | 'dreaming' | 'restarting' | 'closed'
  /** The worker thread's id while one runs. */
  readonly threadId: number | null
  /** Worker crashes since the facade opened (each is followed by a restart). */
  readonly crashes: number
  readonly lastCrash: { readonly at: string; readonly message: string } | null
  readonly running: readonly RunningDream[]
}

/** Event-loop delay of this thread (how late timers fire: what every request waits on top of its own work). */
export interface EventLoopDelay {
  readonly p50Ms: number
  readonly p99Ms: number
  readonly maxMs: number
  /** The span the figures cover: the last 10 to 20 seconds (less just after start). */
  readonly windowMs: number
}

/** What `runtime()` reports: how responsive this thread is and where its dreams run. */
export interface RuntimeStatus {
  readonly eventLoopDelay: EventLoopDelay
  readonly dreams: DreamRunnerStatus
}

/** What {@link HyMem.backgroundDream} reports of one workspace's background dreams. */
export interface BackgroundDreamStatus {
  /** Whether a background cycle of the workspace runs now. */
  readonly running: boolean
  /**
   * When the next background cycle starts (ISO-8601 UTC, wall clock): now or past when it waits only for a
   * running cycle, later when the cooldown holds it; null when none is asked for.
   */
  readonly dueAt: string | null
}
