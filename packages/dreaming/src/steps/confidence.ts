import type { StoreScope } from '@hymem/core-store'

/** Laplace-smoothed confidence: 0.5 for an untested fact, converging on the evidence. */
export function laplace(pos: number, neg: number): number {
  return (pos + 1) / (pos + neg + 2)
}

/**
 * Recomputes an edge's counters and confidence from its evidence rows, so a counter can never drift from
 * the rows it counts (replays and crashes cannot double count). `patch` is written in the same update.
 */
export async function recount(
  tx: StoreScope,
  edgeId: number,
  patch: Record<string, string | null> = {},
): Promise<{ pos: number; neg: number; confidence: number }> {
  const rows = await tx.db
    .selectFrom('kg_evidence')
    .select(['polarity', (eb) => eb.fn.countAll<number>().as('n')])
    .where('edge_id', '=', edgeId)
    .groupBy('polarity')
    .execute()
  const pos = Number(rows.find((r) => r.polarity === 1)?.n ?? 0)
  const neg = Number(rows.find((r) => r.polarity === -1)?.n ?? 0)
  const confidence = laplace(pos, neg)
  await tx.db
    .updateTable('knowledge_graph')
    .set({ ...patch, pos_evidence: pos, neg_evidence: neg, confidence })
    .where('id', '=', edgeId)
    .execute()
  return { pos, neg, confidence }
}
