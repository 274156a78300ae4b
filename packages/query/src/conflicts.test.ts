import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { daysAgo, insertEdge, openTestStore, type TestStore, WS } from '../test/harness'
import { createQueryEngine } from './engine'

describe('conflicts', () => {
  let t: TestStore
  beforeEach(() => {
    t = openTestStore()
  })
  afterEach(() => t.close())
  /** An active, direct fact in the test workspace. */
  const fact = (subject: string, predicate: string, object: string, confidence?: number) =>
    insertEdge(t.store, { subject, predicate, object, ...(confidence === undefined ? {} : { confidence }) })

  it('finds competing objects under an exclusive predicate', async () => {
    const english = await fact('atta', 'prefers', 'english', 0.7)
    const dutch = await fact('atta', 'prefers', 'dutch', 0.8)
    await fact('atta', 'uses', 'vim')
    await fact('atta', 'uses', 'emacs')
    const conflicts = await createQueryEngine({ store: t.store }).conflicts({ workspaceId: WS })
    expect(conflicts).toEqual([
      {
        kind: 'competing_object',
        subject: 'atta',
        predicate: 'prefers',
        object: null,
        edges: [
          expect.objectContaining({ id: dutch, object: 'dutch', confidence: 0.8 }),
          expect.objectContaining({ id: english, object: 'english', confidence: 0.7 }),
        ],
      },
    ])
  })

  it('finds opposing predicates on the same subject and object', async () => {
    const prefers = await fact('team', 'prefers', 'docker', 0.9)
    const rejects = await insertEdge(t.store, {
      subject: 'team',
      predicate: 'rejects',
      object: 'docker',
      confidence: 0.6,
      lastSeen: daysAgo(3),
    })
    await fact('team', 'uses', 'podman')
    await fact('other', 'rejects', 'podman')
    const conflicts = await createQueryEngine({ store: t.store }).conflicts({ workspaceId: WS })
    expect(conflicts).toEqual([
      {
        kind: 'opposing_predicate',
        subject: 'team',
        predicate: 'prefers|rejects',
        object: 'docker',
        edges: [
          {
            id: prefers,
            subject: 'team',
            predicate: 'prefers',
            object: 'docker',
            confidence: 0.9,
            posEvidence: 1,
            negEvidence: 0,
            lastSeen: daysAgo(1),
          },
          {
            id: rejects,
            subject: 'team',
            predicate: 'rejects',
            object: 'docker',
            confidence: 0.6,
            posEvidence: 1,
            negEvidence: 0,
            lastSeen: daysAgo(3),
          },
        ],
      },
    ])
  })

  it('ignores retracted, derived and superseded edges and other workspaces', async () => {
    await fact('atta', 'prefers', 'english')
    await insertEdge(t.store, { subject: 'atta', predicate: 'prefers', object: 'dutch', status: 'retracted' })
    await insertEdge(t.store, { subject: 'atta', predicate: 'prefers', object: 'french', derived: true })
    await insertEdge(t.store, {
      subject: 'atta',
      predicate: 'prefers',
      object: 'german',
      validTo: daysAgo(1),
    })
    await insertEdge(t.store, {
      subject: 'atta',
      predicate: 'prefers',
      object: 'spanish',
      workspaceId: 'other',
    })
    await insertEdge(t.store, { subject: 'atta', predicate: 'rejects', object: 'english', derived: true })
    expect(await createQueryEngine({ store: t.store }).conflicts({ workspaceId: WS })).toEqual([])
  })

  it('orders by the weakest edge of each conflict, honours the limit and the configured predicate sets', async () => {
    await fact('a', 'prefers', 'x', 0.3)
    await fact('a', 'prefers', 'y', 0.9)
    await fact('b', 'uses', 'z', 0.8)
    await fact('b', 'avoids', 'z', 0.7)
    const engine = createQueryEngine({ store: t.store })
    expect((await engine.conflicts({ workspaceId: WS })).map((c) => c.subject)).toEqual(['b', 'a'])
    expect((await engine.conflicts({ workspaceId: WS, limit: 1 })).map((c) => c.subject)).toEqual(['b'])
    const narrow = createQueryEngine({
      store: t.store,
      config: { exclusivePredicates: [], opposingPredicates: [] },
    })
    expect(await narrow.conflicts({ workspaceId: WS })).toEqual([])
  })

  it('refuses a missing workspace or a bad limit', async () => {
    const engine = createQueryEngine({ store: t.store })
    await expect(engine.conflicts({ workspaceId: '' })).rejects.toThrowErrorMatchingInlineSnapshot(
      `[QueryError: conflicts() needs a workspaceId]`,
    )
    await expect(engine.conflicts({ workspaceId: WS, limit: 0 })).rejects.toThrowErrorMatchingInlineSnapshot(
      `[QueryError: conflicts() limit must be a positive integer]`,
    )
  })
})
