import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'

const T = '2026-03-01T10:00:00.000Z'

/** The history cases of the store contract, run against every backend. */
export function describeHistoryContract(backend: BackendUnderTest) {
  describe('history repository', () => {
    const stores = backend.use()

    it("lists an entity's facts oldest first, with both clocks, supersede links, retraction and evidence", async () => {
      let now = T
      const store = await stores.open({ clock: () => new Date(now) })
      const heroku = await store.edges.insert('w', {
        subject: 'api',
        predicate: 'deploys_to',
        object: 'heroku',
        seenAt: '2026-01-01T00:00:00.000Z',
        status: 'stale',
        validTo: '2026-02-01T00:00:00.000Z',
      })
      const fly = await store.edges.insert('w', {
        subject: 'api',
        predicate: 'deploys_to',
        object: 'fly',
        seenAt: '2026-02-01T00:00:00.000Z',
      })
      await store.edges.setSupersededBy('w', heroku.id, fly.id)
      await store.edges.insert('w', {
        subject: 'api',
        predicate: 'uses',
        object: 'mysql',
        seenAt: '2026-01-15T00:00:00.000Z',
        status: 'retracted',
      })
      await store.backup.insertIfAbsent('extraction_feedback', {
        workspaceId: 'w',
        subject: 'api',
        predicate: 'uses',
        object: 'mysql',
        chunkText: null,
        reason: 'wrong',
        createdAt: '2026-03-02T00:00:00.000Z',
      })
      await store.edges.insert('w', { subject: 'web', predicate: 'uses', object: 'react' })
      const run = await store.dreamRuns.start('w', { extractor: 'rules', promptVersion: 'v1' })
      now = '2026-03-01T10:00:01.000Z'
      await store.evidence.add('w', {
        edgeId: fly.id,
        evidenceText: 'we now deploy to fly',
        observedAt: '2026-02-01T00:00:00.000Z',
        createdAt: now,
      })
      now = '2026-03-01T10:00:02.000Z'
      await store.dreamRuns.finish('w', run, { status: 'ok' })

      const history = await store.history.forEntity('w', 'api')
      expect(history.map((h) => `${h.fact.predicate} ${h.fact.object}`)).toEqual([
        'deploys_to heroku',
        'uses mysql',
        'deploys_to fly',
      ])
      const [old, wrong, current] = history
      expect(old).toMatchObject({
        becameTrueAt: '2026-01-01T00:00:00.000Z',
        supersededBy: { id: fly.id, object: 'fly' },
        retraction: null,
      })
      expect(wrong?.retraction).toEqual({ reason: 'wrong', at: '2026-03-02T00:00:00.000Z' })
      expect(current).toMatchObject({
        becameTrueAt: '2026-02-01T00:00:00.000Z',
        learnedAt: '2026-03-01T10:00:01.000Z',
        learnedInRun: run,
        supersedes: [{ id: heroku.id, object: 'heroku' }],
        evidence: [{ evidenceText: 'we now deploy to fly' }],
      })
      expect(old?.learnedInRun).toBeNull()
      expect(await store.history.forEntity('w', 'nobody')).toEqual([])
      expect((await store.history.forEntity('w', 'react')).map((h) => h.fact.subject)).toEqual(['web'])
    })
  })
}
