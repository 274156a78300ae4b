import { count, type RunContext } from '../run/context'
import { tripleKey } from './feedback'

interface Premise {
  id: number
  subject: string
  object: string
  confidence: number
  last_reinforced: string
  valid_from: string
}

interface Derived {
  subject: string
  object: string
  confidence: number
  premises: Premise[]
}

/**
 * Derives `depends_on` edges from the current direct graph: the depends_on closure (A→B→C ⇒ A depends_on C,
 * breadth first) and the uses hop (A uses B, B depends_on… C ⇒ A depends_on C). Confidence is the product of
 * the premises' confidences (the best path wins); anything under `retractThreshold` is dropped, as is a
 * fact already stated directly or retracted. Pure: the graph in, the derived set out.
 */
export function inferDependencies(
  dependsOn: readonly Premise[],
  uses: readonly Premise[],
  threshold: number,
  excluded: ReadonlySet<string>,
): Derived[] {
  const out = new Map<string, Derived>()
  const adjacency = new Map<string, Premise[]>()
  for (const e of dependsOn) adjacency.set(e.subject, [...(adjacency.get(e.subject) ?? []), e])
  const offer = (subject: string, object: string, path: Premise[], minHops: number) => {
    if (subject === object || path.length < minHops) return
    const key = tripleKey({ subject, predicate: 'depends_on', object })
    if (excluded.has(key)) return
    const confidence = path.reduce((p, e) => p * e.confidence, 1)
    if (confidence < threshold) return
    const best = out.get(key)
    if (!best || confidence > best.confidence) out.set(key, { subject, object, confidence, premises: path })
  }
  // Breadth-first from every node; a path never revisits a node, and a longer path is only kept when it
  // carries more confidence than a shorter one already found.
  const closure = (start: string, prefix: Premise[], minHops: number) => {
    const best = new Map<string, number>()
    let frontier: { node: string; path: Premise[] }[] = [{ node: start, path: prefix }]
    while (frontier.length > 0) {
      const next: typeof frontier = []
      for (const { node, path } of frontier) {
        for (const edge of adjacency.get(node) ?? []) {
          if (path.some((p) => p.subject === edge.object) || edge.object === start) continue
          const extended = [...path, edge]
          const confidence = extended.reduce((p, e) => p * e.confidence, 1)
          if (confidence < threshold || confidence <= (best.get(edge.object) ?? 0)) continue
          best.set(edge.object, confidence)
          offer(prefix[0]?.subject ?? start, edge.object, extended, minHops)
          next.push({ node: edge.object, path: extended })
        }
      }
      frontier = next
    }
  }
  for (const node of [...adjacency.keys()].sort()) closure(node, [], 2)
  for (const use of uses) closure(use.object, [use], 2)
  return [...out.values()].sort(
    (a, b) => a.subject.localeCompare(b.subject) || a.object.localeCompare(b.object),
  )
}

/**
 * Wipes the workspace's derived edges and recomputes them from scratch in one transaction. Each derived edge
 * carries one `inference` evidence row naming its premises and their source messages.
 */
export async function recomputeInferences(ctx: RunContext): Promise<void> {
  const { store, workspaceId, config } = ctx
  const now = store.context.now()
  const stats = await store.transaction(async (tx) => {
    const old = await tx.db
      .selectFrom('knowledge_graph')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('derived', '=', 1)
      .execute()
    if (old.length > 0) {
      await tx.vectors.remove(
        'edges',
        old.map((e) => e.id),
      )
      await tx.db
        .deleteFrom('knowledge_graph')
        .where('workspace_id', '=', workspaceId)
        .where('derived', '=', 1)
        .execute()
    }
    const direct = await tx.db
      .selectFrom('knowledge_graph')
      .select([
        'id',
        'subject',
        'predicate',
        'object',
        'confidence',
        'status',
        'valid_to',
        'last_reinforced',
        'valid_from',
      ])
      .where('workspace_id', '=', workspaceId)
      .where('derived', '=', 0)
      .where('predicate', 'in', ['depends_on', 'uses'])
      .orderBy('id')
      .execute()
    const current = direct.filter((e) => e.status === 'active' && e.valid_to === null)
    const excluded = new Set(direct.filter((e) => e.predicate === 'depends_on').map(tripleKey))
    const derived = inferDependencies(
      current.filter((e) => e.predicate === 'depends_on'),
      current.filter((e) => e.predicate === 'uses'),
      config.retractThreshold,
      excluded,
    )
    for (const d of derived) {
      const lastReinforced = d.premises.map((p) => p.last_reinforced).sort()[0]!
      const validFrom = d.premises
        .map((p) => p.valid_from)
        .sort()
        .at(-1)!
      const inserted = await tx.db
        .insertInto('knowledge_graph')
        .values({
          workspace_id: workspaceId,
          subject: d.subject,
          predicate: 'depends_on',
          object: d.object,
          confidence: d.confidence,
          derived: 1,
          first_seen: now,
          last_seen: now,
          last_reinforced: lastReinforced,
          valid_from: validFrom,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      const messageIds = await premiseMessages(
        tx.db,
        d.premises.map((p) => p.id),
      )
      await tx.db
        .insertInto('kg_evidence')
        .values({
          workspace_id: workspaceId,
          edge_id: inserted.id,
          chunk_id: null,
          message_ids: JSON.stringify(messageIds),
          polarity: 1,
          evidence_text: d.premises.map((p) => `${p.subject} → ${p.object}`).join('; '),
          source: 'inference',
          prompt_version: null,
          observed_at: lastReinforced,
          created_at: now,
        })
        .execute()
    }
    return { removed: old.length, derived: derived.length }
  })
  count(ctx, 'derivedEdges', stats.derived)
}

async function premiseMessages(db: RunContext['store']['db'], edgeIds: readonly number[]): Promise<number[]> {
  const rows = await db
    .selectFrom('kg_evidence')
    .select('message_ids')
    .where('edge_id', 'in', edgeIds)
    .where('polarity', '=', 1)
    .execute()
  const ids = new Set<number>()
  for (const r of rows) for (const id of JSON.parse(r.message_ids) as number[]) ids.add(id)
  return [...ids].sort((a, b) => a - b).slice(0, 200)
}
