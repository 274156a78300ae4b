import type { Edge, EdgePatch, NewEvidence, StoreScope, Triple } from '@hymem/core-store'

/** One piece of evidence for (or against) a triple. */
export interface EvidenceInput extends Omit<NewEvidence, 'edgeId' | 'chunkId' | 'polarity' | 'observedAt'> {
  readonly chunkId: number | null
  readonly polarity: 1 | -1
  /** When the evidence was stated (the messages' time). */
  readonly observedAt: string
}

export interface UpsertResult {
  /** Null when a negation named a fact the graph never held (nothing to weaken). */
  readonly edge: Edge | null
  readonly created: boolean
  /** False when this chunk had already given this evidence (a replay). */
  readonly evidenceAdded: boolean
}

const later = (a: string, b: string) => (a > b ? a : b)
const earlier = (a: string, b: string) => (a < b ? a : b)

/**
 * Inserts or reinforces a direct edge with one evidence row. Evidence is unique per (edge, chunk, polarity),
 * so replaying a chunk changes nothing; counters are recomputed from the rows. Positive evidence from a chunk
 * replaces a decay mark the same chunk left earlier, and re-activates a superseded edge when it is newer
 * than the supersession. A negation of a fact the graph never held creates nothing.
 */
export async function upsertEdge(
  tx: StoreScope,
  workspaceId: string,
  triple: Triple,
  evidence: EvidenceInput,
): Promise<UpsertResult> {
  const at = evidence.observedAt
  let existing = await tx.edges.findByKey(workspaceId, triple)
  let created = false
  if (!existing && evidence.polarity === -1) return { edge: null, created: false, evidenceAdded: false }
  if (!existing) {
    existing = await tx.edges.insert(workspaceId, { ...triple, seenAt: at })
    created = true
  }
  const edgeId = existing.id
  const evidenceAdded = await tx.evidence.add(workspaceId, { ...evidence, edgeId })
  if (evidenceAdded && evidence.polarity === 1 && evidence.chunkId !== null) {
    await tx.evidence.removeDecayMark(workspaceId, edgeId, evidence.chunkId)
  }
  if (evidenceAdded) {
    const patch: { -readonly [K in keyof EdgePatch]: EdgePatch[K] } = {
      lastSeen: later(existing.lastSeen, at),
      firstSeen: earlier(existing.firstSeen, at),
    }
    if (evidence.polarity === 1) {
      patch.lastReinforced = later(existing.lastReinforced, at)
      patch.validFrom = earlier(existing.validFrom, at)
      if (existing.status === 'stale' && existing.validTo !== null && at > existing.validTo) {
        Object.assign(patch, { status: 'active', validTo: null, supersededBy: null })
      }
    }
    const counts = await tx.edges.recount(workspaceId, edgeId, patch)
    existing = { ...existing, ...patch, ...counts }
  }
  return { edge: existing, created, evidenceAdded }
}
