import type { Kysely, Selectable } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { EdgeStatus, HyMemDatabase, KnowledgeGraphTable } from '../kernel/tables'
import { requireText } from './checks'
import { selectInWorkspace } from './workspace-rows'

/** One edge of the knowledge graph: a typed fact with its evidence counts and validity window. */
export interface Edge {
  readonly id: number
  readonly workspaceId: string
  readonly subject: string
  readonly predicate: string
  readonly object: string
  readonly posEvidence: number
  readonly negEvidence: number
  readonly confidence: number
  readonly status: EdgeStatus
  /** True for edges written by inference (recomputed from scratch each dream). */
  readonly derived: boolean
  readonly firstSeen: string
  readonly lastSeen: string
  readonly lastReinforced: string
  readonly validFrom: string
  /** Set when a newer fact superseded this one. */
  readonly validTo: string | null
  readonly supersededBy: number | null
  /** When HyMem learned the fact (its first supporting evidence was written); null for an edge without any. */
  readonly learnedAt: string | null
}

export function toEdge(row: Selectable<KnowledgeGraphTable>): Edge {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    subject: row.subject,
    predicate: row.predicate,
    object: row.object,
    posEvidence: row.pos_evidence,
    negEvidence: row.neg_evidence,
    confidence: row.confidence,
    status: row.status,
    derived: row.derived === 1,
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
    lastReinforced: row.last_reinforced,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    supersededBy: row.superseded_by,
    learnedAt: row.learned_at ?? null,
  }
}

/** A subject–predicate–object triple. */
export interface Triple {
  readonly subject: string
  readonly predicate: string
  readonly object: string
}

/** Names one edge within a workspace: its triple and whether it is derived. */
export interface EdgeKey extends Triple {
  /** @default false (the direct edge, as extraction states it) */
  readonly derived?: boolean
}

/**
 * An edge as a dump carries it: everything but its id and supersede link (both are store-local). Without
 * `learnedAt`, the first supporting evidence written for it sets it.
 */
export type ImportedEdge = Omit<Edge, 'id' | 'supersededBy' | 'learnedAt'> & {
  readonly learnedAt?: string | null
}

/** Which edges count as current. Retracted edges never do. */
export interface EdgeValidity {
  /** ISO time: only edges valid then (`validFrom ≤ asOf < validTo`) that HyMem had learned by then. */
  readonly asOf?: string
  /** Without `asOf`, also keep superseded edges (those with `validTo` set). @default false */
  readonly includeSuperseded?: boolean
}

/** A new edge; omitted evidence counts, confidence and status take the column defaults. */
export interface NewEdge extends Triple {
  readonly confidence?: number
  readonly posEvidence?: number
  readonly negEvidence?: number
  readonly status?: EdgeStatus
  /** True for an inferred edge (inference recomputes those each dream). */
  readonly derived?: boolean
  /** First seen, last seen, last reinforced and valid from, unless given apart. @default now */
  readonly seenAt?: string
  /** @default seenAt */
  readonly lastReinforced?: string
  /** @default seenAt */
  readonly validFrom?: string
  readonly validTo?: string | null
}

/** Edge fields written together with recounted evidence counters. */
export interface EdgePatch {
  readonly firstSeen?: string
  readonly lastSeen?: string
  readonly lastReinforced?: string
  readonly validFrom?: string
  readonly status?: EdgeStatus
  readonly validTo?: string | null
  readonly supersededBy?: number | null
}

/** Evidence counters and the Laplace confidence recomputed from an edge's evidence rows. */
export interface EdgeCounts {
  readonly posEvidence: number
  readonly negEvidence: number
  readonly confidence: number
}

export const EDGE_STATUSES: readonly EdgeStatus[] = ['active', 'stale', 'retracted']

export function requireStatus(status: unknown): EdgeStatus {
  if (!EDGE_STATUSES.includes(status as EdgeStatus))
    throw new StoreError('INVALID_INPUT', `status must be one of ${EDGE_STATUSES.join(', ')}`)
  return status as EdgeStatus
}

export function requireTriple(triple: Partial<Triple>): Triple {
  return {
    subject: requireText(triple.subject, 'subject'),
    predicate: requireText(triple.predicate, 'predicate'),
    object: requireText(triple.object, 'object'),
  }
}

/** Active, not superseded edges of a workspace: the graph as it stands. */
export function currentEdges(db: Kysely<HyMemDatabase>, workspaceId: string) {
  return selectInWorkspace(db, 'knowledge_graph', workspaceId)
    .where('status', '=', 'active')
    .where('valid_to', 'is', null)
}
