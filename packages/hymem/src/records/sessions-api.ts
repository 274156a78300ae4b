import type { Store } from '@hymem/core-store'
import { cloneSession } from './clone-session'
import type { HyMemRecords, HyMemSessions } from './types'

/** Builds `memory.sessions` from the store's session records. */
export function createSessionsApi(
  store: Store,
  records: HyMemRecords,
  ensureOpen: () => void,
): HyMemSessions {
  return {
    ...records.sessions,
    async clone(workspaceId, sourceId, cloneId, options = {}) {
      ensureOpen()
      return cloneSession(store, workspaceId, sourceId, cloneId, options.upToId)
    },
  }
}
