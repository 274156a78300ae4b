import type { FactRef } from '@hymem/core-store'

/** One piece of evidence of a fact, as the history shows it. */
export interface HistoryEvidence {
  /** The quote or note the evidence carries (null when none was recorded). */
  readonly text: string | null
  /** 1 supports the fact, -1 contradicts it. */
  readonly polarity: 1 | -1
  /** `extraction`, `decay`, `inference`, ... */
  readonly source: string
  /** When it was said. */
  readonly observedAt: string
  /** When HyMem wrote it down. */
  readonly recordedAt: string
  /** Public ids of the messages it came from. */
  readonly messageIds: readonly string[]
}

/** One fact in an entity's history. */
export interface HistoryFact {
  readonly id: number
  readonly subject: string
  readonly predicate: string
  readonly object: string
  /** `active`, `stale` (superseded) or `retracted`. */
  readonly status: string
  readonly derived: boolean
  readonly confidence: number
  readonly posEvidence: number
  readonly negEvidence: number
  /** When it became true in the conversation (its earliest supporting evidence). */
  readonly becameTrueAt: string
  /** When it stopped being true (a newer fact superseded it); null while current. */
  readonly validTo: string | null
  /** When HyMem learned it, and the dream run that did (null when none was running: an import, say). */
  readonly learnedAt: string | null
  readonly learnedInRun: number | null
  readonly supersededBy: FactRef | null
  readonly supersedes: readonly FactRef[]
  readonly retraction: { readonly reason: string | null; readonly at: string } | null
  readonly evidence: readonly HistoryEvidence[]
}

/** What {@link HyMem.history} returns. */
export interface EntityHistory {
  /** The canonical name the subject resolved to (through aliases). */
  readonly entity: string
  /** Oldest first. */
  readonly facts: readonly HistoryFact[]
}
