import type { Edge } from '@hymem/core-store'
import { count, type RunContext } from '../run/context'
import { tripleKey } from './feedback'

/** A direct edge a derived edge rests on. */
type Premise = Pick<Edge, 'id' | 'subject' | 'object' | 'confidence' | 'lastReinforced' | 'validFrom'>

/** Source messages cited by a derived edge's evidence, at most. */
const MAX_PREMISE_MESSAGES = 200

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
  const stats = await store.transaction(async (tx) => {
    const old = await tx.edges.listDerivedIds(workspaceId)
    if (old.length > 0) {
      await tx.vectors.remove('edges', workspaceId, old)
      await tx.edges.deleteDerived(workspaceId)
    }
    const direct = await tx.edges.findDirectWithPredicates(workspaceId, ['depends_on', 'uses'])
    const current = direct.filter((e) => e.status === 'active' && e.validTo === null)
    const excluded = new Set(direct.filter((e) => e.predicate === 'depends_on').map(tripleKey))
    const derived = inferDependencies(
      current.filter((e) => e.predicate === 'depends_on'),
      current.filter((e) => e.predicate === 'uses'),
      config.retractThreshold,
      excluded,
    )
    for (const d of derived) {
      const lastReinforced = d.premises.map((p) => p.lastReinforced).sort()[0]!
      const validFrom = d.premises
        .map((p) => p.validFrom)
        .sort()
        .at(-1)!
      const { id: edgeId } = await tx.edges.insert(workspaceId, {
        subject: d.subject,
        predicate: 'depends_on',
        object: d.object,
        derived: true,
        confidence: d.confidence,
        lastReinforced,
        validFrom,
      })
      const premiseIds = d.premises.map((p) => p.id)
      const messageIds = await tx.evidence.supportingMessageIds(workspaceId, premiseIds)
      await tx.evidence.add(workspaceId, {
        edgeId,
        chunkId: null,
        messageIds: messageIds.slice(0, MAX_PREMISE_MESSAGES),
        polarity: 1,
        evidenceText: d.premises.map((p) => `${p.subject} → ${p.object}`).join('; '),
        source: 'inference',
        promptVersion: null,
        observedAt: lastReinforced,
      })
    }
    return { removed: old.length, derived: derived.length }
  })
  count(ctx, 'derivedEdges', stats.derived)
}
