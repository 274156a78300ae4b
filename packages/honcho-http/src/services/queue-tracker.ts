interface WorkspaceQueue {
  /** Sessions whose work the running dream covers; null while no dream runs. */
  covered: ReadonlySet<string> | null
  /** Sessions that had messages waiting at the previous observation. */
  active: ReadonlySet<string>
}

/**
 * Memory of one app's queue across polls, so that queue status behaves like Honcho's: while a dream runs, the
 * sessions it covers have work in progress (at least one unit each, even once their messages are chunked).
 */
export class QueueTracker {
  readonly #workspaces = new Map<string, WorkspaceQueue>()

  #state(workspaceId: string): WorkspaceQueue {
    let state = this.#workspaces.get(workspaceId)
    if (!state) {
      state = { covered: null, active: new Set() }
      this.#workspaces.set(workspaceId, state)
    }
    return state
  }

  /**
   * Records what a poll saw: whether a dream runs and which sessions have messages waiting. A dream first
   * seen running covers the sessions waiting now or at the previous poll, else `fallback` (the session of
   * the newest message, asked only then); the cover lasts until a poll sees no dream running.
   */
  async observe(
    workspaceId: string,
    running: boolean,
    waiting: ReadonlySet<string>,
    fallback: () => Promise<string | null>,
  ): Promise<void> {
    const state = this.#state(workspaceId)
    if (!running) state.covered = null
    else if (!state.covered) {
      const covered = new Set([...state.active, ...waiting])
      if (covered.size === 0) {
        const newest = await fallback()
        if (newest !== null) covered.add(newest)
      }
      state.covered = covered
    }
    state.active = new Set(waiting)
  }

  /** Whether the running dream covers the session. */
  covers(workspaceId: string, sessionId: string): boolean {
    return this.#state(workspaceId).covered?.has(sessionId) ?? false
  }
}
