import type { MessageRole, PeerRole } from '../kernel/tables'

const USER_LIKE = /user[-_]|human|client|telegram|discord|slack/i
const ASSISTANT_LIKE = /agent|hermes|assistant|ai[-_]|bot|llm/i

/** Guesses a peer's role from its id when none is given: user-like names first, then assistant-like, else user. */
export function inferPeerRole(peerId: string): PeerRole {
  if (USER_LIKE.test(peerId)) return 'user'
  if (ASSISTANT_LIKE.test(peerId)) return 'assistant'
  return 'user'
}

/** The role a message takes from its author when the caller gives none. */
export function messageRoleOf(peerRole: PeerRole): MessageRole {
  return peerRole === 'other' ? 'user' : peerRole
}
