import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { seedEdge, seedEvidence } from '../../test/canonical-seed'
import { addChunk } from '../../test/fixtures'
import { useTempStores } from '../../test/store-harness'
import { edgeConfidence } from '../repositories/edge-confidence'
import { builderOf } from '../store/builder'
import type { Store } from '../store/types'
import { mergeCanonical } from './merge'

const NAMES = ['postgres', 'postgresql', 'redis', 'app', 'api'] as const
const PREDICATES = ['uses', 'depends_on', 'replaces'] as const

const edgeArb = fc.record({
  subject: fc.constantFrom(...NAMES),
  predicate: fc.constantFrom(...PREDICATES),
  object: fc.constantFrom(...NAMES),
  derived: fc.constantFrom(0, 1),
  pos: fc.nat(5),
  neg: fc.nat(5),
  // evidence rows: chunk index (0-2) or null, and polarity
  evidence: fc.array(fc.record({ chunk: fc.option(fc.nat(2)), polarity: fc.constantFrom<1 | -1>(1, -1) }), {
    maxLength: 4,
  }),
})

async function totals(store: Store) {
  const edges = await builderOf(store).selectFrom('knowledge_graph').selectAll().execute()
  const evidence = await builderOf(store).selectFrom('kg_evidence').select(['edge_id', 'polarity']).execute()
  return {
    edges,
    evidence,
    pos: edges.reduce((sum, e) => sum + e.pos_evidence, 0),
    neg: edges.reduce((sum, e) => sum + e.neg_evidence, 0),
  }
}

describe('mergeCanonical on random graphs', () => {
  const stores = useTempStores()
  let run = 0

  it('never loses evidence, never leaves the old name, and keeps confidence consistent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(edgeArb, {
          selector: (e) => `${e.subject} ${e.predicate} ${e.object} ${e.derived}`,
          maxLength: 12,
        }),
        async (edges) => {
          const store = stores.open({}, `graph-${run++}.sqlite`)
          const chunks = [
            await addChunk(store, 'w1', 'one'),
            await addChunk(store, 'w1', 'two'),
            await addChunk(store, 'w1', 'three'),
          ]
          for (const e of edges) {
            const id = await seedEdge(store, [e.subject, e.predicate, e.object], {
              derived: e.derived,
              pos_evidence: e.pos,
              neg_evidence: e.neg,
              confidence: edgeConfidence(e.pos, e.neg),
            })
            const once = new Set<string>()
            for (const ev of e.evidence) {
              const key = `${ev.chunk}:${ev.polarity}`
              if (ev.chunk !== null && once.has(key)) continue
              once.add(key)
              await seedEvidence(store, id, ev.chunk === null ? null : chunks[ev.chunk]!, ev.polarity)
            }
          }
          const before = await totals(store)
          const report = await mergeCanonical(store, {
            workspaceId: 'w1',
            from: 'postgres',
            to: 'postgresql',
          })
          const after = await totals(store)

          expect(after.edges.some((e) => e.subject === 'postgres' || e.object === 'postgres')).toBe(false)
          expect(after.edges).toHaveLength(before.edges.length - report.edgesMerged)
          expect(after.evidence).toHaveLength(before.evidence.length - report.evidenceDeduplicated)
          const droppedPos = before.pos - after.pos
          const droppedNeg = before.neg - after.neg
          expect(droppedPos + droppedNeg).toBeLessThanOrEqual(report.evidenceDeduplicated)
          expect(droppedPos).toBeGreaterThanOrEqual(0)
          expect(droppedNeg).toBeGreaterThanOrEqual(0)
          const ids = new Set(after.edges.map((e) => e.id))
          expect(after.evidence.every((ev) => ids.has(ev.edge_id))).toBe(true)
          for (const e of after.edges)
            expect(e.confidence).toBeCloseTo(edgeConfidence(e.pos_evidence, e.neg_evidence))
          await store.close()
        },
      ),
      { numRuns: 25 },
    )
  }, 90_000)
})
