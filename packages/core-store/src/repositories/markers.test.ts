import { describe, expect, it } from 'vitest'
import { expectStoreError, useTempStores } from '../../test/store-harness'

describe('markers repository: profile entries', () => {
  const stores = useTempStores()

  it('stores an imported entry once per peer, kind and key, and lists them in that order', async () => {
    const store = stores.open()
    await store.workspaces.getOrCreate('w')
    const entry = {
      workspaceId: 'w',
      peerId: 'user',
      kind: 'preference',
      statement: 'Prefers pnpm.',
      statementKey: 'prefers pnpm',
      posEvidence: 2,
      negEvidence: 0,
      firstSeen: '2026-01-01T00:00:00.000Z',
      lastSeen: '2026-01-02T00:00:00.000Z',
    }
    expect(await store.markers.insertProfileEntryIfAbsent(entry)).toBe(true)
    expect(await store.markers.insertProfileEntryIfAbsent({ ...entry, posEvidence: 5 })).toBe(false)
    await store.markers.insertProfileEntryIfAbsent({ ...entry, kind: 'correction', statementKey: 'no tabs' })
    await store.markers.insertProfileEntryIfAbsent({ ...entry, peerId: 'agent' })
    await store.markers.insertProfileEntryIfAbsent({ ...entry, workspaceId: 'x' })
    const listed = await store.markers.listProfileEntries('w')
    expect(listed.map((e) => [e.peerId, e.kind, e.statementKey])).toEqual([
      ['agent', 'preference', 'prefers pnpm'],
      ['user', 'correction', 'no tabs'],
      ['user', 'preference', 'prefers pnpm'],
    ])
    expect(listed[2]).toEqual({ ...entry, id: expect.any(Number) })
    await expectStoreError(
      store.markers.insertProfileEntryIfAbsent({ ...entry, workspaceId: '' }),
      'INVALID_INPUT',
    )
  })
})
