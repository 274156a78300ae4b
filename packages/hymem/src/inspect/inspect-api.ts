import type { Store } from '@hymem/core-store'
import { HyMemError } from '../errors'
import { inspectFact, workspaceMessages } from './fact'
import { inspectFilters, inspectGraph } from './graph'
import { inspectTimeline } from './timeline'
import type { HyMemInspect } from './types'

const DEFAULT_DREAMS = 50
const MAX_PAGE_SIZE = 500

/** What the inspect API needs from its facade: the store, the workspace rule, and the closed check. */
export interface InspectApiParts {
  readonly store: Store
  /** The workspace a call names, or the facade's default one (validated). */
  readonly workspace: (workspaceId: string | undefined) => string
  /** Throws when the facade is closed. */
  readonly ensureOpen: () => void
}

/** Builds `memory.inspect`: read-only views of the graph, facts, history, notes and health. */
export function createInspectApi(parts: InspectApiParts): HyMemInspect {
  const { store } = parts
  const ws = (workspaceId: string | undefined) => {
    parts.ensureOpen()
    return parts.workspace(workspaceId)
  }
  return {
    async workspaces() {
      parts.ensureOpen()
      const ids: string[] = []
      for (let page = 1; ; page++) {
        const result = await store.workspaces.list({ page, size: MAX_PAGE_SIZE })
        ids.push(...result.items.map((w) => w.id))
        if (page >= result.pages) return ids
      }
    },
    filters: async (options = {}) => inspectFilters(store, ws(options.workspaceId)),
    graph: async (query = {}) => inspectGraph(store, ws(query.workspaceId), query),
    fact: async (id, options = {}) => inspectFact(store, ws(options.workspaceId), id),
    messages: async (ids, options = {}) => workspaceMessages(store, ws(options.workspaceId), ids),
    timeline: async (options = {}) => inspectTimeline(store, ws(options.workspaceId), options.limit),
    async notes(options = {}) {
      const workspaceId = ws(options.workspaceId)
      const size = options.size ?? 100
      if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE)
        throw new HyMemError('INVALID_INPUT', `size must be an integer from 1 to ${MAX_PAGE_SIZE}`)
      return store.notes.list(workspaceId, {
        includeArchived: options.includeArchived === true,
        page: { page: options.page ?? 1, size },
      })
    },
    async health(options = {}) {
      const workspaceId = ws(options.workspaceId)
      const [dreams, searchDays] = await Promise.all([
        store.dreamRuns.recent(workspaceId, options.dreams ?? DEFAULT_DREAMS),
        store.searchLog.dailyFigures(workspaceId),
      ])
      return { dreams, searchDays }
    },
  }
}
