/** The stored role of a turn's message. Only `user` turns are a human speaking. */
export type TurnRole = 'user' | 'assistant' | 'system' | 'tool'

/** One message of a chunk, with its author. */
export interface SpeakerTurn {
  /** The author's peer id. */
  peerId: string
  role: TurnRole
  /** What the author is called; defaults to the registry name, then to the peer id. */
  name?: string
  /** The message content. */
  text: string
}

/** A peer the text may name ("Bob moved to Go"): its id, display name and other names. */
export interface KnownPeer {
  id: string
  name?: string
  /** Other surface forms (nicknames, handles); matched case-insensitively like the name and the id. */
  aliases?: readonly string[]
}

/**
 * How a triple's subject was resolved to a peer: the turn's author speaking in the first person
 * (`speaker`), the author's team ("we", "our team": `speaker-team`), every human author of the chunk ("we
 * both", "all of us": `participants`), a peer named in the text (`named`), the other participant addressed
 * as "you" (`addressee`), or a peer whose statement is quoted or reported (`reported`).
 */
export type Attribution = 'speaker' | 'speaker-team' | 'participants' | 'named' | 'addressee' | 'reported'
