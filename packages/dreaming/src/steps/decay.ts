import type { StoreScope } from '@hymem/core-store'
import { count, type RunContext } from '../run/context'
import { findMentions } from './mentions'

const DAY_MS = 86_400_000

/**
 * Phase 3 co-occurrence-aware decay. An active direct edge not reinforced within the decay window loses
 * confidence only when a processed chunk inside the window mentions its subject or object without
 * evidencing it. Each such (edge, chunk) pair is recorded once as a `decay` evidence row (polarity -1,
 * unique per edge and chunk), so dreaming again over the same data changes nothing. Edges whose Laplace
 * confidence falls below `retractThreshold` are retracted and recorded as extraction feedback.
 *
 * Mentions are scanned outside any transaction; the marks, counters and retractions are one set-based
 * transaction.
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
  const stats = await store.transaction(async (tx) => {
    for (const [chunkId, entities] of mentions) await tx.mentions.add(workspaceId, chunkId, entities)
    const pairs = await tx.edges.findSoftContradictions(workspaceId, since)
    const marks = await tx.evidence.addMany(
      workspaceId,
      pairs.map((p) => ({
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
    for (const edgeId of new Set(pairs.map((p) => p.edgeId))) {
      const { confidence } = await tx.edges.recount(workspaceId, edgeId)
      if (confidence < config.retractThreshold) {
        await retract(tx, workspaceId, edgeId, confidence, config.retractThreshold)
        retracted++
      }
    }
    return { marks, retracted }
  })
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
