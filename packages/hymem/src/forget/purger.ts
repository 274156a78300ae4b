import { existsSync } from 'node:fs'
import { hostname } from 'node:os'
import { type ForgetTarget, type Purge, randomId, type Store } from '@hymem/core-store'
import { dreamLockName } from '@hymem/dreaming'
import { HyMemError } from '../errors'
import type { HyMemLog } from '../log'

/** What the purger needs from the facade. */
export interface PurgerDeps {
  readonly store: Store
  readonly log: HyMemLog
  /** Rewrites USER.md and MEMORY.md of a workspace from what the store holds now. */
  readonly rewriteMarkdown: (workspaceId: string) => Promise<void>
  readonly markdownPaths: (workspaceId: string) => { userMd: string; memoryMd: string }
  /** Drops this process's query caches of a workspace (`removeRows` told the others). */
  readonly invalidate: (workspaceId: string) => void
}

/** How long to wait before asking again for a dream lock held by a running dream, or a busy checkpoint. */
const RETRY_MS = [50, 100, 250, 500, 1000, 2000]
const CHECKPOINT_ATTEMPTS = 5

/**
 * Runs purges: the rows go at once (one transaction, so every read excludes them when `forget` returns),
 * the rest in the background under the workspace's dream lock — a sweep of anything a dream running
 * meanwhile derived from the content, the Markdown files, the full-text indexes and the write-ahead log.
 * Each step is idempotent, so `resume()` after a crash finishes what a killed process left.
 */
export class Purger {
  readonly #deps: PurgerDeps
  readonly #inFlight = new Map<number, Promise<Purge>>()
  /** Purges `resume()` finished in the background; the next `settle()` reports them once. */
  readonly #resumed = new Map<number, string>()
  readonly #holder = `purge:${hostname()}:${process.pid}:${randomId(8)}`
  #closed = false

  constructor(deps: PurgerDeps) {
    this.#deps = deps
  }

  /** Forgets the target: returns once reads exclude it; `wait` also waits until it is gone from disk. */
  async forget(workspaceId: string, target: ForgetTarget, wait: boolean): Promise<Purge> {
    const { store } = this.#deps
    const requested = await store.purges.request(workspaceId, target)
    const purge = await store.purges.removeRows(workspaceId, requested.id)
    this.#deps.invalidate(workspaceId)
    // USER.md and MEMORY.md are read by augment and profile: they drop the content now too.
    await this.#rewriteMarkdown(workspaceId)
    this.#deps.log({
      kind: 'forget',
      level: 'info',
      workspaceId,
      purgeId: purge.id,
      what: purge.kind,
      status: purge.status,
      removed: purge.removed,
    })
    const finishing = this.finish(workspaceId, purge.id)
    return wait ? finishing : purge
  }

  /** Finishes one purge (at most one run per purge at a time); resolves with its receipt. */
  finish(workspaceId: string, id: number): Promise<Purge> {
    const running = this.#inFlight.get(id)
    if (running) return running
    const run = this.#complete(workspaceId, id).finally(() => this.#inFlight.delete(id))
    // A failure is reported and left for the next start; callers that wait see it.
    run.catch((error: unknown) =>
      this.#deps.log({
        kind: 'forget-failed',
        level: 'error',
        purgeId: id,
        message: error instanceof Error ? error.message : String(error),
      }),
    )
    this.#inFlight.set(id, run)
    return run
  }

  /** Finishes every unfinished purge (of one workspace, or all) and returns their receipts. */
  async settle(workspaceId?: string): Promise<Purge[]> {
    const pending = await this.#deps.store.purges.unfinished(workspaceId)
    const runs = new Map(this.#inFlight)
    const owners = new Map([
      ...this.#resumed,
      ...pending.map((purge) => [purge.id, purge.workspaceId] as const),
    ])
    for (const [id, owner] of owners) if (!runs.has(id)) runs.set(id, this.finish(owner, id))
    const receipts = await Promise.all(runs.values())
    const settled = receipts.filter((purge) => workspaceId === undefined || purge.workspaceId === workspaceId)
    for (const purge of settled) this.#resumed.delete(purge.id)
    return settled.sort((a, b) => a.id - b.id)
  }

  /**
   * After a restart: removes the rows of requests a killed process accepted but did not get to (so no read
   * returns them from now on), then finishes every unfinished purge in the background.
   */
  async resume(): Promise<void> {
    const { store } = this.#deps
    for (const purge of await store.purges.unfinished()) {
      if (purge.status === 'requested') {
        await store.purges.removeRows(purge.workspaceId, purge.id)
        this.#deps.invalidate(purge.workspaceId)
        await this.#rewriteMarkdown(purge.workspaceId)
      }
      this.#resumed.set(purge.id, purge.workspaceId)
      this.finish(purge.workspaceId, purge.id)
    }
  }

  /** Stops waiting for locks (unfinished purges resume at the next start) and awaits the runs in flight. */
  async close(): Promise<void> {
    this.#closed = true
    await Promise.allSettled([...this.#inFlight.values()])
  }

  async #complete(workspaceId: string, id: number): Promise<Purge> {
    const { store } = this.#deps
    const current = await store.purges.get(workspaceId, id)
    if (!current) throw new HyMemError('NOT_FOUND', `no purge with id ${id}`)
    if (current.status === 'done') return current
    const lock = await this.#lock(current.workspaceId)
    if (!lock) return current
    try {
      const swept = await store.purges.removeRows(workspaceId, id)
      this.#deps.invalidate(swept.workspaceId)
      await this.#rewriteMarkdown(swept.workspaceId)
      for (let attempt = 0; ; attempt++) {
        const compaction = await store.purges.compact(workspaceId, id)
        if (compaction.checkpointed || attempt + 1 >= CHECKPOINT_ATTEMPTS || this.#closed) {
          this.#deps.log({
            kind: 'forget',
            level: 'info',
            workspaceId: swept.workspaceId,
            purgeId: id,
            what: swept.kind,
            status: compaction.purge.status,
            removed: compaction.purge.removed,
          })
          return compaction.purge
        }
        await pause(RETRY_MS[attempt] ?? 2000)
      }
    } finally {
      await lock.release()
    }
  }

  /** The workspace's dream lock, waited for while a dream holds it; null once the purger closes. */
  async #lock(workspaceId: string) {
    for (let attempt = 0; !this.#closed; attempt++) {
      const result = await this.#deps.store.runLock.acquire(dreamLockName(workspaceId), this.#holder)
      if (result.acquired) return result.lock
      await pause(RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]!)
    }
    return null
  }

  async #rewriteMarkdown(workspaceId: string): Promise<void> {
    const files = this.#deps.markdownPaths(workspaceId)
    if (!existsSync(files.userMd) && !existsSync(files.memoryMd)) return
    await this.#deps.rewriteMarkdown(workspaceId)
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
