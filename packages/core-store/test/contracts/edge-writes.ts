import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'
import { minute, seedChunks } from '../graph-seed'
import { expectStoreError, manualClock } from '../store-harness'

const triple = (subject: string, predicate: string, object: string) => ({ subject, predicate, object })
const names = (edges: readonly { subject: string; predicate: string; object: string }[]) =>
  edges.map((e) => `${e.subject} ${e.predicate} ${e.object}`)

/** The edge writes cases of the store contract, run against every backend. */
export function describeEdgeWritesContract(backend: BackendUnderTest) {
  describe('edges repository: the writes and reads of dreaming', () => {
    const stores = backend.use()

    it('inserts a direct edge seen at a time and finds it by triple, never its derived twin', async () => {
      const store = await stores.open({ clock: manualClock().clock })
      const edge = await store.edges.insert('w', { ...triple('api', 'uses', 'redis'), seenAt: minute(0) })
      expect(edge).toMatchObject({
        workspaceId: 'w',
        posEvidence: 0,
        negEvidence: 0,
        confidence: 0.5,
        status: 'active',
        derived: false,
        firstSeen: minute(0),
        lastSeen: minute(0),
        lastReinforced: minute(0),
        validFrom: minute(0),
        validTo: null,
        supersededBy: null,
      })
      await store.edges.insert('w', {
        ...triple('api', 'uses', 'redis'),
        derived: true,
        confidence: 0.4,
        lastReinforced: minute(1),
        validFrom: minute(1),
      })
      expect(await store.edges.findByKey('w', triple('api', 'uses', 'redis'))).toEqual(edge)
      expect(await store.edges.findByKey('other', triple('api', 'uses', 'redis'))).toBeNull()
      expect(await store.edges.findByKey('w', triple('api', 'uses', 'kafka'))).toBeNull()
      expect(
        (await store.edges.findByKey('w', { ...triple('api', 'uses', 'redis'), derived: true }))?.confidence,
      ).toBe(0.4)
      expect((await store.edges.listAll('w')).map((e) => e.derived)).toEqual([false, true])
      await expectStoreError(store.edges.findByKey('w', triple('', 'uses', 'redis')), 'INVALID_INPUT')
      await expectStoreError(
        store.edges.insert('w', { ...triple('a', 'uses', 'b'), status: 'gone' as never }),
        'INVALID_INPUT',
      )
    })

    it('recounts counters and Laplace confidence from the evidence rows and writes the patch with them', async () => {
      const store = await stores.open({ clock: manualClock().clock })
      const chunks = await seedChunks(store, 'w', ['one', 'two', 'three'])
      const edge = await store.edges.insert('w', { ...triple('api', 'uses', 'redis'), seenAt: minute(0) })
      for (const [chunk, polarity] of [
        [chunks[0]!, 1],
        [chunks[1]!, 1],
        [chunks[2]!, -1],
      ] as const) {
        await store.evidence.add('w', {
          edgeId: edge.id,
          chunkId: chunk.id,
          polarity,
          observedAt: chunk.occurredAt,
        })
      }
      const counts = await store.edges.recount('w', edge.id, {
        lastReinforced: minute(9),
        status: 'stale',
        validTo: minute(9),
      })
      expect(counts).toEqual({ posEvidence: 2, negEvidence: 1, confidence: 0.6 })
      expect(await store.edges.findByKey('w', triple('api', 'uses', 'redis'))).toMatchObject({
        posEvidence: 2,
        negEvidence: 1,
        confidence: 0.6,
        lastReinforced: minute(9),
        status: 'stale',
        validTo: minute(9),
      })
      await expectStoreError(store.edges.recount('w', edge.id, { status: 'gone' as never }), 'INVALID_INPUT')
      await expectStoreError(store.edges.recount('w', edge.id, { lastSeen: '' }), 'INVALID_INPUT')
    })

    it('lists current direct edges by any part of the triple, and supersedes or retracts one', async () => {
      const store = await stores.open({ clock: manualClock().clock })
      const heroku = await store.edges.insert('w', triple('team', 'deploys_to', 'heroku'))
      const fly = await store.edges.insert('w', triple('team', 'deploys_to', 'fly'))
      await store.edges.insert('w', triple('api', 'deploys_to', 'fly'))
      await store.edges.insert('w', { ...triple('team', 'deploys_to', 'aws'), status: 'retracted' })
      await store.edges.insert('w', { ...triple('team', 'deploys_to', 'gcp'), derived: true })
      await store.edges.insert('other', triple('team', 'deploys_to', 'azure'))
      const current = (filter: Parameters<typeof store.edges.findCurrentDirect>[1]) =>
        store.edges.findCurrentDirect('w', filter).then(names)
      expect(await current({ subject: 'team', predicate: 'deploys_to' })).toEqual([
        'team deploys_to heroku',
        'team deploys_to fly',
      ])
      expect(await current({ object: 'fly' })).toEqual(['team deploys_to fly', 'api deploys_to fly'])
      expect(await store.edges.supersede('w', heroku.id, { winnerId: fly.id, validTo: minute(5) })).toBe(true)
      expect(await store.edges.supersede('w', heroku.id, { winnerId: fly.id, validTo: minute(6) })).toBe(
        false,
      )
      expect(await store.edges.findByKey('w', triple('team', 'deploys_to', 'heroku'))).toMatchObject({
        status: 'stale',
        validTo: minute(5),
        supersededBy: fly.id,
      })
      expect(await current({ subject: 'team' })).toEqual(['team deploys_to fly'])
      expect(await store.edges.retract('w', fly.id)).toEqual(triple('team', 'deploys_to', 'fly'))
      expect(await current({ subject: 'team' })).toEqual([])
      await expectStoreError(store.edges.retract('other', fly.id), 'NOT_FOUND')
    })

    it('finds decay candidates, entity endpoints and the edges of a predicate', async () => {
      const { clock } = manualClock()
      const store = await stores.open({ clock })
      await store.edges.insert('w', { ...triple('api', 'depends_on', 'redis'), seenAt: minute(0) })
      await store.edges.insert('w', { ...triple('api', 'uses', 'kafka'), seenAt: minute(10) })
      await store.edges.insert('w', {
        ...triple('ci', 'depends_on', 'uv'),
        seenAt: minute(0),
        status: 'stale',
      })
      await store.edges.insert('w', {
        ...triple('web', 'depends_on', 'redis'),
        seenAt: minute(0),
        derived: true,
      })
      expect(names(await store.edges.findStaleDirect('w', minute(5)))).toEqual(['api depends_on redis'])
      expect(await store.edges.listDirectEndpoints('w')).toEqual(
        expect.arrayContaining([
          { subject: 'api', object: 'redis' },
          { subject: 'api', object: 'kafka' },
          { subject: 'ci', object: 'uv' },
        ]),
      )
      expect(await store.edges.listDirectEndpoints('w')).toHaveLength(3)
      expect(names(await store.edges.findDirectWithPredicates('w', ['depends_on']))).toEqual([
        'api depends_on redis',
        'ci depends_on uv',
      ])
      expect(await store.edges.findDirectWithPredicates('w', [])).toEqual([])
    })

    it('reads the insight sources: confident dependencies, confident preferences and contested edges', async () => {
      const store = await stores.open({ clock: manualClock().clock })
      const add = (s: string, p: string, o: string, confidence: number, extra = {}) =>
        store.edges.insert('w', { ...triple(s, p, o), confidence, posEvidence: 3, negEvidence: 0, ...extra })
      await add('docs', 'depends_on', 'uv', 0.8)
      await add('api', 'depends_on', 'uv', 0.8)
      await add('api', 'depends_on', 'redis', 0.6)
      await add('web', 'depends_on', 'uv', 0.9, { derived: true })
      await add('ci', 'depends_on', 'uv', 0.9, { status: 'stale', validTo: minute(1) })
      await add('alice', 'prefers', 'vim', 0.75)
      await add('alice', 'rejects', 'java', 0.9)
      await add('alice', 'avoids', 'yaml', 0.7)
      await add('api', 'uses', 'mysql', 0.5, { posEvidence: 2, negEvidence: 2 })
      await add('api', 'uses', 'pg', 0.5, { posEvidence: 1, negEvidence: 3 })
      expect(names(await store.edges.findConfidentDependencies('w', 0.6))).toEqual([
        'api depends_on uv',
        'docs depends_on uv',
      ])
      expect(
        names(await store.edges.findConfidentWithPredicates('w', ['prefers', 'rejects', 'avoids'], 0.7)),
      ).toEqual(['alice rejects java', 'alice prefers vim'])
      expect(names(await store.edges.findContested('w'))).toEqual(['api uses pg', 'api uses mysql'])
      await expectStoreError(store.edges.findConfidentDependencies('w', Number.NaN), 'INVALID_INPUT')
    })

    it('deletes the derived edges (and their evidence) only', async () => {
      const store = await stores.open({ clock: manualClock().clock })
      const direct = await store.edges.insert('w', triple('api', 'depends_on', 'redis'))
      const { id: derivedId } = await store.edges.insert('w', {
        ...triple('api', 'depends_on', 'jemalloc'),
        derived: true,
        confidence: 0.44,
        lastReinforced: minute(0),
        validFrom: minute(2),
      })
      await store.evidence.add('w', { edgeId: derivedId, source: 'inference', observedAt: minute(0) })
      expect(await store.edges.listDerivedIds('w')).toEqual([derivedId])
      expect(await store.edges.deleteDerived('other')).toBe(0)
      expect(await store.edges.deleteDerived('w')).toBe(1)
      expect(await store.edges.listDerivedIds('w')).toEqual([])
      expect(await store.evidence.forEdges('w', [derivedId])).toEqual([])
      expect((await store.edges.listAll('w')).map((e) => e.id)).toEqual([direct.id])
    })

    it('finds soft contradictions: processed chunks since a time that mention a stale edge without evidence', async () => {
      const store = await stores.open({ clock: manualClock().clock })
      const [old, mention, evidencing, unprocessed] = await seedChunks(store, 'w', [
        'the api depends on redis',
        'redis was slow',
        'redis again, and the api still depends on it',
        'redis once more',
      ])
      const edge = await store.edges.insert('w', {
        ...triple('api', 'depends_on', 'redis'),
        seenAt: minute(0),
      })
      await store.edges.insert('w', { ...triple('worker', 'uses', 'redis'), seenAt: minute(3) })
      await store.evidence.add('w', { edgeId: edge.id, chunkId: old!.id, observedAt: old!.occurredAt })
      await store.evidence.add('w', { edgeId: edge.id, chunkId: evidencing!.id, observedAt: minute(2) })
      for (const chunk of [old!, mention!, evidencing!, unprocessed!])
        await store.mentions.add('w', chunk.id, ['redis'])
      for (const chunk of [old!, mention!, evidencing!])
        await store.chunks.markProcessed('w', chunk.id, { promptVersion: 'v1', extractor: 'rules' })
      expect(await store.edges.findSoftContradictions('w', minute(1))).toEqual([
        { edgeId: edge.id, chunkId: mention!.id, messageIds: mention!.messageIds, occurredAt: minute(1) },
      ])
      expect(await store.edges.findSoftContradictions('other', minute(1))).toEqual([])
    })
  })
}
