import type { StoreScope } from '@hymem/core-store'
import { checkpoint, count, type RunContext } from '../run/context'
import { findMentions } from './mentions'

const DAY_MS = 86_400_000
/** Chunks whose mentions are indexed per transaction. */
const CHUNKS_PER_TRANSACTION = 200
/** Edges whose decay marks, counters and retraction commit together, per transaction. */
const EDGES_PER_TRANSACTION = 100

/**
 * Phase 3 co-occurrence-aware decay. An active direct edge not reinforced within the decay window loses
 * confidence only when a processed chunk inside the window mentions its subject or object without
 * evidencing it. Each such (edge, chunk) pair is recorded once as a `decay` evidence row (polarity -1,
 * unique per edge and chunk), so dreaming again over the same data changes nothing. Edges whose Laplace
 * confidence falls below `retractThreshold` are retracted and recorded as extraction feedback.
 *
 * Mentions are scanned outside any transaction and indexed in short transactions; then each group of edges
 * gets its marks, counters and retractions in one transaction (a crash leaves whole edges done, and the
 * next cycle finds the rest, since marks are unique per edge and chunk).
 */
export async function decayEdges(ctx: RunContext): Promise<void> {
  const { store, workspaceId, config } = ctx
  const since = new Date(store.context.clock().getTime() - config.decayWindowDays * DAY_MS).toISOString()
  const stale = await store.edges.findStaleDirect(workspaceId, since)
  count(ctx, 'decayCandidates', stale.length)
  if (stale.length === 0) return
  const mentions = await findMentions(
    store,
    workspaceId,
    new Set(stale.flatMap((e) => [e.subject, e.object])),
    since,
  )
  const mentioned = [...mentions]
  for (let at = 0; at < mentioned.length; at += CHUNKS_PER_TRANSACTION) {
    await store.transaction(async (tx) => {
      for (const [chunkId, entities] of mentioned.slice(at, at + CHUNKS_PER_TRANSACTION))
        await tx.mentions.add(workspaceId, chunkId, entities)
    })
    await checkpoint(ctx)
  }
  const pairs = await store.edges.findSoftContradictions(workspaceId, since)
  const edges = [...new Set(pairs.map((p) => p.edgeId))]
  const stats = { marks: 0, retracted: 0 }
  for (let at = 0; at < edges.length; at += EDGES_PER_TRANSACTION) {
    const group = new Set(edges.slice(at, at + EDGES_PER_TRANSACTION))
    const done = await store.transaction(async (tx) => {
      const marks = await tx.evidence.addMany(
        workspaceId,
        pairs
          .filter((p) => group.has(p.edgeId))
          .map((p) => ({
            edgeId: p.edgeId,
            chunkId: p.chunkId,
            messageIds: p.messageIds,
            polarity: -1,
            source: 'decay',
            evidenceText: 'mentioned without restating the fact',
            promptVersion: null,
            observedAt: p.occurredAt,
          })),
      )
      let retracted = 0
      for (const edgeId of group) {
        const { confidence } = await tx.edges.recount(workspaceId, edgeId)
        if (confidence < config.retractThreshold) {
          await retract(tx, workspaceId, edgeId, confidence, config.retractThreshold)
          retracted++
        }
      }
      return { marks, retracted }
    })
    stats.marks += done.marks
    stats.retracted += done.retracted
    await checkpoint(ctx)
  }
  count(ctx, 'softContradictions', stats.marks)
  count(ctx, 'edgesRetracted', stats.retracted)
}

async function retract(
  tx: StoreScope,
  workspaceId: string,
  edgeId: number,
  confidence: number,
  threshold: number,
): Promise<void> {
  const edge = await tx.edges.retract(workspaceId, edgeId)
  await tx.feedback.record(workspaceId, {
    ...edge,
    chunkText: await tx.evidence.latestSupportText(workspaceId, edgeId),
    reason: `decay: confidence ${confidence.toFixed(2)} fell below ${threshold}`,
  })
}
