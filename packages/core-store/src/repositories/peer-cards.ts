import type { RepositoryScope } from './scope'

/** Peer cards (`peer_cards`). */
// biome-ignore lint/suspicious/noEmptyInterface: methods are added as callers move off raw SQL
export interface PeerCardsRepository {}

export function createPeerCardsRepository(_scope: RepositoryScope): PeerCardsRepository {
  return {}
}
