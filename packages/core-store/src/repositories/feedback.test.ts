import { describe, expect, it } from 'vitest'
import { expectStoreError, useTempStores } from '../../test/store-harness'

describe('feedback repository', () => {
  const stores = useTempStores()

  it('lists recent retractions and counts them per day', async () => {
    const store = stores.open()
    const row = (object: string, at: string) => ({
      workspace_id: 'w',
      subject: 'api',
      predicate: 'uses',
      object,
      reason: 'wrong',
      created_at: at,
    })
    await store.db
      .insertInto('extraction_feedback')
      .values([
        row('mysql', '2026-01-02T10:00:00.000Z'),
        row('java', '2026-01-02T12:00:00.000Z'),
        row('perl', '2026-01-05T09:00:00.000Z'),
        { ...row('cobol', '2026-01-06T09:00:00.000Z'), workspace_id: 'other' },
      ])
      .execute()
    const recent = await store.feedback.recentRetractions('w', 2)
    expect(recent.map((r) => [r.object, r.createdAt, r.reason])).toEqual([
      ['perl', '2026-01-05T09:00:00.000Z', 'wrong'],
      ['java', '2026-01-02T12:00:00.000Z', 'wrong'],
    ])
    expect(await store.feedback.retractionsByDay('w')).toEqual([
      { day: '2026-01-02', retracted: 2 },
      { day: '2026-01-05', retracted: 1 },
    ])
    await expectStoreError(store.feedback.recentRetractions('w', 0), 'INVALID_INPUT')
  })
})
