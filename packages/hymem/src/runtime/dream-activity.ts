import type { DreamProgressEvent } from '@hymem/dreaming'
import type { RunningDream } from './types'

/** One cycle being tracked: feed it the cycle's progress events, end it once. */
export interface TrackedDream {
  progress(event: DreamProgressEvent): void
  end(): void
}

type Entry = { -readonly [K in keyof RunningDream]: RunningDream[K] }

/** The dream cycles of a facade in progress, with the phase and chunk count their progress events report. */
export class DreamActivity {
  readonly #running = new Set<Entry>()

  start(workspaceId: string): TrackedDream {
    const entry: Entry = { workspaceId, phase: null, chunks: null, startedAt: new Date().toISOString() }
    this.#running.add(entry)
    return {
      progress: (event) => {
        if (event.kind === 'phase-start') entry.phase = event.phase
        else if (event.kind === 'chunk') entry.chunks = { done: event.index, total: event.total }
      },
      end: () => {
        this.#running.delete(entry)
      },
    }
  }

  get size(): number {
    return this.#running.size
  }

  list(): RunningDream[] {
    return [...this.#running].map((entry) => ({ ...entry }))
  }
}
