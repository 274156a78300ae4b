import type { MessageFilter, MessageFilterField } from '@hymem/core-store'
import { andAll, compileFilter } from '../filters/compile'
import { MESSAGE_FILTERS } from '../filters/resources'
import type { FilterResource } from '../filters/types'
import type { HonchoMemory } from '../types'
import { messageOut, type WireMessage } from '../wire/shapes'
import { augmentRanking } from './augment-ranking'

export interface SearchRequest {
  readonly workspaceId: string
  readonly query: string
  readonly limit: number
  readonly filters?: Record<string, unknown> | undefined
  /** Forced restrictions (the route's own session / peer, a scope's sessions). */
  readonly sessionIds?: readonly string[]
  readonly sessionId?: string
  readonly peerId?: string
}

const RRF_K = 60

/** `peer_perspective`: messages of sessions the peer belonged to, within its joined/left window. */
const SEARCH_FILTERS: FilterResource<MessageFilterField> = {
  ...MESSAGE_FILTERS,
  special: {
    peer_perspective: (value) =>
      typeof value === 'string' ? { op: 'observableBy', peerId: value } : { op: 'or', filters: [] },
  },
}

/**
 * Hybrid message search: augment's ranked items (graph facts, chunks, notes … expanded to their source
 * messages), topped up by a direct full-text search over messages (fused by reciprocal rank) when they do not
 * fill the page. The filter DSL and the route's forced restrictions are applied by the store. Each result
 * carries its reason codes in `metadata.hymem`.
 */
export async function searchMessages(memory: HonchoMemory, request: SearchRequest): Promise<WireMessage[]> {
  const { workspaceId, query, limit } = request
  const condition = compileFilter(SEARCH_FILTERS, request.filters)
  const sessionIds = request.sessionId ? [request.sessionId] : request.sessionIds

  const augmented = await augmentRanking(memory, query, {
    workspaceId,
    ...(sessionIds ? { sessionIds } : {}),
    ...(request.peerId ? { peerId: request.peerId } : {}),
  })
  const fused = new Map<number, { score: number; why: Set<string> }>()
  const add = (id: number, rank: number, why: readonly string[]): boolean => {
    const entry = fused.get(id)
    if (entry) {
      entry.score += 1 / (RRF_K + rank + 1)
      for (const code of why) entry.why.add(code)
      return false
    }
    fused.set(id, { score: 1 / (RRF_K + rank + 1), why: new Set(why) })
    return true
  }
  for (const [rank, item] of augmented.entries()) add(item.messageId, rank, item.why)

  const where: MessageFilter = andAll<MessageFilterField>([
    sessionIds ? { op: 'in', field: 'sessionId', values: sessionIds } : null,
    request.peerId ? { op: 'eq', field: 'peerId', value: request.peerId } : null,
    condition,
  ])
  const load = (ids: readonly number[]) =>
    ids.length === 0 ? Promise.resolve([]) : memory.messages.findByIds(workspaceId, ids, where)
  let messages = await load([...fused.keys()])

  // Top up from a direct full-text search when augment's candidates do not fill the page after filtering.
  if (messages.length < limit) {
    const fullText = await memory.messages.searchText(workspaceId, query, {
      limit: Math.max(50, limit * 5),
      ...(sessionIds ? { sessionIds } : {}),
      ...(request.peerId ? { peerId: request.peerId } : {}),
    })
    const fresh: number[] = []
    for (const [rank, hit] of fullText.entries()) {
      if (add(Number(hit.id), rank, ['fts'])) fresh.push(Number(hit.id))
    }
    messages = messages.concat(await load(fresh))
  }
  return messages
    .map((message) => ({ message, entry: fused.get(message.id)! }))
    .sort((a, b) => b.entry.score - a.entry.score || b.message.id - a.message.id)
    .slice(0, limit)
    .map(({ message, entry }) =>
      messageOut(message, { hymem: { score: round(entry.score), why: [...entry.why] } }),
    )
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6
}
