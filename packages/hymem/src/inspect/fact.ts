import type { Message, Store } from '@hymem/core-store'
import { HyMemError } from '../errors'
import type { FactEvidence, FactView } from './types'

/** Messages of one workspace by internal id, in the order asked (other workspaces' ids are absent). */
export async function workspaceMessages(
  store: Store,
  workspaceId: string,
  ids: readonly number[],
): Promise<Message[]> {
  if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id)))
    throw new HyMemError('INVALID_INPUT', 'message ids must be integers')
  return store.messages.getByIds(workspaceId, ids)
}

/** One edge with its evidence (chunks and source messages), entity types and supersede chain. */
export async function inspectFact(store: Store, workspaceId: string, id: number): Promise<FactView | null> {
  if (!Number.isInteger(id)) throw new HyMemError('INVALID_INPUT', 'a fact id must be an integer')
  const edge = await store.edges.getById(workspaceId, id)
  if (!edge) return null
  const [rows, chain, types] = await Promise.all([
    store.evidence.forEdge(workspaceId, id),
    store.edges.supersedeChain(workspaceId, id),
    store.entityTypes.typesOf(workspaceId, [edge.subject, edge.object]),
  ])
  const chunkIds = rows.flatMap((row) => (row.chunkId === null ? [] : [row.chunkId]))
  const [chunks, messages] = await Promise.all([
    store.chunks.getByIds(workspaceId, chunkIds),
    workspaceMessages(
      store,
      workspaceId,
      rows.flatMap((row) => row.messageIds),
    ),
  ])
  const chunkById = new Map(chunks.map((c) => [c.id, c]))
  const messageById = new Map(messages.map((m) => [m.id, m]))
  const evidence: FactEvidence[] = rows.map((row) => ({
    id: row.id,
    polarity: row.polarity,
    text: row.evidenceText,
    observedAt: row.observedAt,
    source: row.source,
    chunk: row.chunkId === null ? null : (chunkById.get(row.chunkId) ?? null),
    messages: row.messageIds.flatMap((mid) => messageById.get(mid) ?? []),
  }))
  const typeOf = (name: string) => types.get(name) ?? null
  return {
    edge,
    subjectType: typeOf(edge.subject),
    objectType: typeOf(edge.object),
    evidence,
    replaced: chain.replaced,
    replacedBy: chain.replacedBy,
  }
}
