import { describe, expect, it } from 'vitest'
import { useTempStores } from '../../test/store-harness'

describe('markers repository: profile entries', () => {
  const stores = useTempStores()

  it("lists a peer's entries with more support than contradiction, best supported, then newest first", async () => {
    const store = stores.open()
    const entry = (peer: string, statement: string, pos: number, neg: number, lastSeen: string) =>
      store.db
        .insertInto('profile_entries')
        .values({
          workspace_id: 'w',
          peer_id: peer,
          kind: 'preference',
          statement,
          statement_key: statement,
          pos_evidence: pos,
          neg_evidence: neg,
          first_seen: '2026-01-01T00:00:00.000Z',
          last_seen: lastSeen,
        })
        .execute()
    await entry('alice', 'likes tea', 2, 0, '2026-01-02T00:00:00.000Z')
    await entry('alice', 'likes coffee', 2, 0, '2026-01-03T00:00:00.000Z')
    await entry('alice', 'likes jazz', 5, 1, '2026-01-01T00:00:00.000Z')
    await entry('alice', 'likes rain', 1, 1, '2026-01-05T00:00:00.000Z')
    await entry('bob', 'likes chess', 3, 0, '2026-01-01T00:00:00.000Z')
    const entries = await store.markers.supportedProfileEntries('w', 'alice', 10)
    expect(entries.map((e) => e.statement)).toEqual(['likes jazz', 'likes coffee', 'likes tea'])
    expect(entries[0]).toEqual({
      kind: 'preference',
      statement: 'likes jazz',
      posEvidence: 5,
      negEvidence: 1,
      firstSeen: '2026-01-01T00:00:00.000Z',
      lastSeen: '2026-01-01T00:00:00.000Z',
    })
    expect(await store.markers.supportedProfileEntries('w', 'alice', 1)).toHaveLength(1)
    expect(await store.markers.supportedProfileEntries('w', 'nobody', 10)).toEqual([])
  })
})
