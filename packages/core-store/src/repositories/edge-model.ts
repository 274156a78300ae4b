import type { Kysely, Selectable } from 'kysely'
import type { EdgeStatus, HyMemDatabase, KnowledgeGraphTable } from '../schema/tables'
import { requireText } from './checks'

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
  }
}

/** A subject–predicate–object triple. */
export interface Triple {
  readonly subject: string
  readonly predicate: string
  readonly object: string
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
  return db
    .selectFrom('knowledge_graph')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'active')
    .where('valid_to', 'is', null)
}
