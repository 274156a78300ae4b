/**
 * One gate per database file per process. better-sqlite3 waits for a busy database synchronously, so if one
 * connection of this process held a write transaction across an `await` while another connection of the
 * same process asked for the write lock, the waiting call would block the very thread the holder needs to
 * commit, and both would stall until the busy timeout. Every connection to the same file in this process
 * takes the gate while it holds its connection, so they never contend; other processes still meet SQLite's
 * own locking and busy timeout.
 */
export interface FileGate {
  /** Resolves once the gate is yours; call the returned function exactly once to pass it on. */
  acquire(): Promise<() => void>
  /** Runs `fn` holding the gate. */
  run<T>(fn: () => T | Promise<T>): Promise<T>
  /** Drops this connection's reference; the last one removes the gate. */
  detach(): void
}

interface SharedGate {
  tail: Promise<void>
  references: number
}

const gates = new Map<string, SharedGate>()

export function attachFileGate(path: string): FileGate {
  const key = path === ':memory:' ? `:memory:${Math.random()}` : path
  let shared = gates.get(key)
  if (!shared) {
    shared = { tail: Promise.resolve(), references: 0 }
    gates.set(key, shared)
  }
  shared.references++
  const gate = shared
  let detached = false

  const acquire = (): Promise<() => void> => {
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    const previous = gate.tail
    gate.tail = previous.then(() => released)
    return previous.then(() => {
      let done = false
      return () => {
        if (done) return
        done = true
        release()
      }
    })
  }

  return {
    acquire,
    run: async (fn) => {
      const release = await acquire()
      try {
        return await fn()
      } finally {
        release()
      }
    },
    detach: () => {
      if (detached) return
      detached = true
      gate.references--
      if (gate.references === 0 && gates.get(key) === gate) gates.delete(key)
    },
  }
}
