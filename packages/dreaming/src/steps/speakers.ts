import { type Chunk, type Message, normalize, type Store } from '@hymem/core-store'
import type { KnownPeer, SpeakerTurn } from '@hymem/extraction'
import { USER_SUBJECT } from './canonical'
import { chunkLine } from './chunk'

/** Metadata keys a peer's display name may be stored under (Honcho clients use either). */
const NAME_KEYS = ['name', 'display_name', 'displayName'] as const

/**
 * The workspace's peers as the extractors' registry: each peer's id, its display name from metadata and
 * the alias surfaces that resolve to it.
 */
export async function loadKnownPeers(store: Store, workspaceId: string): Promise<KnownPeer[]> {
  const [peers, aliases] = await Promise.all([
    store.peers.listAll(workspaceId),
    store.aliases.listAll(workspaceId),
  ])
  const aliasesOf = new Map<string, string[]>()
  for (const alias of aliases) {
    // `user` is the single-user alias dreaming claims itself: it names nobody in the text.
    if (alias.surface === USER_SUBJECT) continue
    const list = aliasesOf.get(alias.canonical) ?? []
    list.push(alias.surface.replaceAll('_', ' '))
    aliasesOf.set(alias.canonical, list)
  }
  return peers.map((peer) => {
    const name = NAME_KEYS.map((key) => peer.metadata[key]).find(
      (value): value is string => typeof value === 'string' && value.trim() !== '',
    )
    const surfaces = aliasesOf.get(normalize(peer.id)) ?? []
    return {
      id: peer.id,
      ...(name ? { name: name.trim() } : {}),
      ...(surfaces.length ? { aliases: surfaces } : {}),
    }
  })
}

/**
 * A chunk's messages as speaker turns, in order, cut to the chunk's character cap the way its text was (a
 * single overlong message keeps its head). Undefined when a message is missing (purged or never imported):
 * the chunk is then read as plain text.
 */
export function chunkTurns(
  chunk: Pick<Chunk, 'messageIds'>,
  messages: ReadonlyMap<number, Message>,
  maxChars: number,
): SpeakerTurn[] | undefined {
  if (chunk.messageIds.length === 0) return undefined
  const turns: SpeakerTurn[] = []
  let used = 0
  for (const id of chunk.messageIds) {
    const message = messages.get(id)
    if (!message) return undefined
    const room = maxChars - used - chunkLine({ role: message.role, content: '' }).length - (used > 0 ? 1 : 0)
    if (room <= 0) break
    const text = message.content.trim().slice(0, room)
    if (text !== '') turns.push({ peerId: message.peerId, role: message.role, text })
    used += (used > 0 ? 1 : 0) + chunkLine({ role: message.role, content: text }).length
  }
  return turns.length > 0 ? turns : undefined
}

/** The messages behind the chunks, by id (one query per `IN` list slice). */
export async function loadChunkMessages(
  store: Store,
  workspaceId: string,
  chunks: readonly Pick<Chunk, 'messageIds'>[],
): Promise<Map<number, Message>> {
  const ids = [...new Set(chunks.flatMap((chunk) => chunk.messageIds))]
  const messages = ids.length > 0 ? await store.messages.findByIds(workspaceId, ids) : []
  return new Map(messages.map((message) => [message.id, message]))
}
