import type { Kysely } from 'kysely'
import type { HyMemDatabase } from '../kernel/tables'
import { type Edge, toEdge } from './edge-model'
import { type Evidence, toEvidence } from './evidence'
import { requireId } from './json'
import type { RepositoryScope } from './scope'
import { selectInWorkspace } from './workspace-rows'

/** A fact named by id and triple (the other end of a supersede link). */
export interface FactRef {
  readonly id: number
  readonly subject: string
  readonly predicate: string
  readonly object: string
}

/** One fact of an entity's history, with its two clocks, its supersede links, retraction and evidence. */
export interface FactHistoryEntry {
  readonly fact: Edge
  /** When it became true in the conversation: its earliest supporting evidence (`validFrom`). */
  readonly becameTrueAt: string
  /** When HyMem learned it: its first supporting evidence was written (null for a fact without any). */
  readonly learnedAt: string | null
  /** The dream run that was running when it was learned; null when none was (an import, a direct write). */
  readonly learnedInRun: number | null
  readonly supersededBy: FactRef | null
  /** The facts this one closed. */
  readonly supersedes: readonly FactRef[]
  /** Set when the fact was retracted and the retraction was recorded (by a user or by decay). */
  readonly retraction: { readonly reason: string | null; readonly at: string } | null
  /** Oldest observation first. */
  readonly evidence: readonly Evidence[]
}

/** The history of facts (`knowledge_graph` with `kg_evidence`, `extraction_feedback`, `dream_runs`). */
export interface HistoryRepository {
  /**
   * Every fact naming the entity (exactly as stored) as subject or object — current, superseded, retracted
   * and inferred — oldest first (by when it became true, then id).
   */
  forEntity(workspaceId: string, entity: string): Promise<FactHistoryEntry[]>
}

const ref = (edge: Edge): FactRef => ({
  id: edge.id,
  subject: edge.subject,
  predicate: edge.predicate,
  object: edge.object,
})

export function createHistoryRepository(scope: RepositoryScope): HistoryRepository {
  const { db } = scope
  return {
    async forEntity(workspaceId, entity) {
      requireId(workspaceId, 'workspace id')
      requireId(entity, 'entity')
      const rows = await selectInWorkspace(db, 'knowledge_graph', workspaceId)
        .where((eb) => eb.or([eb('subject', '=', entity), eb('object', '=', entity)]))
        .orderBy('valid_from')
        .orderBy('id')
        .execute()
      if (rows.length === 0) return []
      const facts = rows.map(toEdge)
      const ids = facts.map((f) => f.id)
      const linked = await linkedFacts(db, workspaceId, facts)
      const evidence = await db
        .selectFrom('kg_evidence')
        .selectAll()
        .where('edge_id', 'in', ids)
        .orderBy('observed_at')
        .orderBy('id')
        .execute()
      const retractions = await db
        .selectFrom('extraction_feedback')
        .select(['subject', 'predicate', 'object', 'reason', 'created_at'])
        .where('workspace_id', '=', workspaceId)
        .where((eb) => eb.or([eb('subject', '=', entity), eb('object', '=', entity)]))
        .orderBy('created_at')
        .execute()
      const runs = await db
        .selectFrom('dream_runs')
        .select(['id', 'started_at', 'finished_at'])
        .where('workspace_id', '=', workspaceId)
        .where('status', '!=', 'skipped')
        .orderBy('started_at', 'desc')
        .execute()
      const runAt = (at: string | null) =>
        at === null
          ? null
          : (runs.find((r) => r.started_at <= at && (r.finished_at === null || r.finished_at >= at))?.id ??
            null)
      return facts.map((fact) => {
        const retracted =
          fact.status === 'retracted'
            ? retractions.findLast(
                (r) =>
                  r.subject === fact.subject && r.predicate === fact.predicate && r.object === fact.object,
              )
            : undefined
        const next = fact.supersededBy === null ? undefined : linked.get(fact.supersededBy)
        return {
          fact,
          becameTrueAt: fact.validFrom,
          learnedAt: fact.learnedAt,
          learnedInRun: runAt(fact.learnedAt),
          supersededBy: next ? ref(next) : null,
          supersedes: [...linked.values()].filter((other) => other.supersededBy === fact.id).map(ref),
          retraction: retracted ? { reason: retracted.reason, at: retracted.created_at } : null,
          evidence: evidence.filter((e) => e.edge_id === fact.id).map(toEvidence),
        }
      })
    },
  }
}

/** The facts and the facts linked to them by supersession (either way), by id. */
async function linkedFacts(
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  facts: readonly Edge[],
): Promise<Map<number, Edge>> {
  const ids = facts.map((f) => f.id)
  const targets = facts.flatMap((f) => (f.supersededBy === null ? [] : [f.supersededBy]))
  const rows = await selectInWorkspace(db, 'knowledge_graph', workspaceId)
    .where((eb) =>
      eb.or([eb('superseded_by', 'in', ids), ...(targets.length > 0 ? [eb('id', 'in', targets)] : [])]),
    )
    .execute()
  const out = new Map(facts.map((f) => [f.id, f]))
  for (const row of rows) out.set(row.id, toEdge(row))
  return out
}
