import type { Edge } from '@hymem/core-store'

/** How an edge was tied to the message's entities (any combination may hold). */
export interface Anchors {
  /** A matched entity is the edge's subject or object. */
  direct?: string
  /** A same-type expansion of a matched entity, or an entity of a type the message named, is on the edge. */
  type?: { readonly entity: string; readonly entityType: string }
  /** Reached through a shared rare name token. */
  overlap?: { readonly entity: string; readonly token: string }
}

/** An edge gathered by one or more candidate sources. */
export interface GraphCandidate {
  readonly edge: Edge
  /** Cosine similarity from the edge-vector KNN; 0 when the KNN did not return it. */
  semantic: number
  readonly anchors: Anchors
  /** Pulled by the predicate-routed lookup. */
  routed: boolean
}

/** Entity-anchored, but only through token overlap (scores at the overlap weight). */
export function isOverlapOnly(anchors: Anchors): boolean {
  return anchors.overlap !== undefined && anchors.direct === undefined && anchors.type === undefined
}

/** Entity-anchored through a type (a same-type sibling or a type the message named), not directly. */
export function isTypeOnly(anchors: Anchors): boolean {
  return anchors.type !== undefined && anchors.direct === undefined
}
