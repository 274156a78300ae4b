import { describe, expect, it } from 'vitest'
import { builderOf } from '../../src/store/builder'
import type { BackendUnderTest } from '../backends'
import { expectStoreError, manualClock } from '../store-harness'

/** The feedback cases of the store contract, run against every backend. */
export function describeFeedbackContract(backend: BackendUnderTest) {
  describe('feedback repository', () => {
    const stores = backend.use()

    it('records retracted triples and gives the most recent first', async () => {
      const { clock, advance } = manualClock()
      const store = await stores.open({ clock })
      const triple = (object: string) => ({ subject: 'api', predicate: 'uses', object })
      await store.feedback.record('w', { ...triple('mysql'), chunkText: 'we use mysql', reason: 'wrong' })
      advance(1000)
      await store.feedback.record('w', { ...triple('redis'), chunkText: null, reason: null })
      await store.feedback.record('w', { ...triple('kafka'), chunkText: null, reason: 'old' })
      const all = await store.feedback.recent('w')
      expect(all.map((f) => f.object)).toEqual(['kafka', 'redis', 'mysql'])
      expect(all[2]).toMatchObject({
        chunkText: 'we use mysql',
        reason: 'wrong',
        createdAt: '2026-03-01T10:00:00.000Z',
      })
      expect((await store.feedback.recent('w', 1)).map((f) => f.object)).toEqual(['kafka'])
      expect(await store.feedback.recent('w', 0)).toEqual([])
      expect(await store.feedback.recent('other')).toEqual([])
      await expectStoreError(store.feedback.recent('w', -1), 'INVALID_INPUT')
      await expectStoreError(
        store.feedback.record('w', { ...triple(''), chunkText: null, reason: null }),
        'INVALID_INPUT',
      )
    })

    it('lists recent retractions and counts them per day', async () => {
      const store = await stores.open()
      const row = (object: string, at: string) => ({
        workspace_id: 'w',
        subject: 'api',
        predicate: 'uses',
        object,
        reason: 'wrong',
        created_at: at,
      })
      await builderOf(store)
        .insertInto('extraction_feedback')
        .values([
          row('mysql', '2026-01-02T10:00:00.000Z'),
          row('java', '2026-01-02T12:00:00.000Z'),
          row('perl', '2026-01-05T09:00:00.000Z'),
          { ...row('cobol', '2026-01-06T09:00:00.000Z'), workspace_id: 'other' },
        ])
        .execute()
      const recent = await store.feedback.recent('w', 2)
      expect(recent.map((r) => [r.object, r.createdAt, r.reason])).toEqual([
        ['perl', '2026-01-05T09:00:00.000Z', 'wrong'],
        ['java', '2026-01-02T12:00:00.000Z', 'wrong'],
      ])
      expect(await store.feedback.retractionsByDay('w')).toEqual([
        { day: '2026-01-02', retracted: 2 },
        { day: '2026-01-05', retracted: 1 },
      ])
      await expectStoreError(store.feedback.recent('w', 1.5), 'INVALID_INPUT')
    })
  })
}
