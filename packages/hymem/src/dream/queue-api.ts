import type { Store } from '@hymem/core-store'
import { dreamBacklog, pendingWorkspaces } from './backlog'
import type { DreamRunner } from './dream-runner'
import type { HyMemQueue } from './queue-types'

/** What `memory.queue` needs from its facade. */
export interface QueueApiParts {
  readonly store: Store
  readonly dreams: DreamRunner
  readonly promptVersion: string
  /** The workspace a call names, or the facade's default one (validated). */
  readonly workspace: (workspaceId: string | undefined) => string
  /** Throws when the facade is closed. */
  readonly ensureOpen: () => void
}

/** Builds `memory.queue`. */
export function createQueueApi(parts: QueueApiParts): HyMemQueue {
  const { store, dreams, workspace, ensureOpen } = parts
  return {
    async backlog(workspaceId) {
      ensureOpen()
      return dreamBacklog(store, workspace(workspaceId), parts.promptVersion, dreams.running)
    },
    async pending() {
      ensureOpen()
      return pendingWorkspaces(store, parts.promptVersion, () => dreams.running)
    },
    schedule(workspaceId) {
      ensureOpen()
      dreams.schedule(workspace(workspaceId))
    },
    // Answers after close too: a closed facade reports its background dreams as stopped.
    background: (workspaceId) => dreams.background(workspace(workspaceId)),
    async holdTotals(workspaceId, totals) {
      ensureOpen()
      return store.queueTotals.hold(workspaceId, totals)
    },
  }
}
