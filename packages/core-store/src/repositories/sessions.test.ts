import { describe, expect, it } from 'vitest'
import { seedChunks } from '../../test/graph-seed'
import { expectStoreError, manualClock, useTempStores } from '../../test/store-harness'

describe('sessions repository', () => {
  const stores = useTempStores()

  it('getOrCreate creates once with its metadata and configuration', async () => {
    const { clock } = manualClock()
    const store = stores.open({ clock })
    const created = await store.sessions.getOrCreate('w', 's', {
      metadata: { topic: 'db' },
      configuration: { a: 1 },
    })
    expect(created).toEqual({
      created: true,
      value: {
        workspaceId: 'w',
        id: 's',
        isActive: true,
        metadata: { topic: 'db' },
        configuration: { a: 1 },
        summary: null,
        summaryMessageId: null,
        summaryUpdatedAt: null,
        startedAt: '2026-03-01T10:00:00.000Z',
        endedAt: null,
        createdAt: '2026-03-01T10:00:00.000Z',
      },
    })
    expect(await store.sessions.getOrCreate('w', 's', { metadata: { other: 1 } })).toEqual({
      created: false,
      value: created.value,
    })
  })

  it('update replaces metadata and merges configuration; setActive and setSummary persist', async () => {
    const { clock, advance } = manualClock()
    const store = stores.open({ clock })
    await store.sessions.getOrCreate('w', 's', { configuration: { a: 1 } })
    const updated = await store.sessions.update('w', 's', { metadata: { m: 1 }, configuration: { b: 2 } })
    expect(updated).toMatchObject({ metadata: { m: 1 }, configuration: { a: 1, b: 2 } })
    advance(60_000)
    await store.sessions.setSummary('w', 's', { text: 'They chose Postgres.', messageId: 7 })
    await store.sessions.setActive('w', 's', false)
    expect(await store.sessions.get('w', 's')).toMatchObject({
      isActive: false,
      summary: 'They chose Postgres.',
      summaryMessageId: 7,
      summaryUpdatedAt: '2026-03-01T10:01:00.000Z',
      endedAt: '2026-03-01T10:01:00.000Z',
    })
    await store.sessions.setActive('w', 's', true)
    expect(await store.sessions.get('w', 's')).toMatchObject({ isActive: true, endedAt: null })
    await expectStoreError(store.sessions.setActive('w', 'missing', false), 'NOT_FOUND')
    await expectStoreError(
      store.sessions.setSummary('w', 'missing', { text: 'x', messageId: 1 }),
      'NOT_FOUND',
    )
  })

  it('lists active sessions only, oldest first, with pagination', async () => {
    const { clock, advance } = manualClock()
    const store = stores.open({ clock })
    for (const id of ['s1', 's2', 's3', 's4']) {
      await store.sessions.getOrCreate('w', id)
      advance(1000)
    }
    await store.sessions.setActive('w', 's2', false)
    const page = await store.sessions.list('w', { size: 2 })
    expect(page.items.map((s) => s.id)).toEqual(['s1', 's3'])
    expect(page).toMatchObject({ total: 3, pages: 2 })
    expect((await store.sessions.list('w', { reverse: true })).items.map((s) => s.id)).toEqual([
      's4',
      's3',
      's1',
    ])
  })

  it('manages membership: add, re-join keeps configuration, remove, per-peer configuration', async () => {
    const { clock, advance } = manualClock()
    const store = stores.open({ clock })
    await store.sessions.addPeers('w', 's', [
      { peerId: 'alice', configuration: { observe_me: false } },
      { peerId: 'hermes' },
    ])
    expect((await store.peers.get('w', 'hermes'))?.role).toBe('assistant')
    advance(1000)
    await store.sessions.removePeers('w', 's', ['alice'])
    expect((await store.sessions.listPeers('w', 's')).map((p) => p.peerId)).toEqual(['hermes'])
    expect((await store.sessions.getPeer('w', 's', 'alice'))?.leftAt).toBe('2026-03-01T10:00:01.000Z')
    advance(1000)
    await store.sessions.addPeers('w', 's', [{ peerId: 'alice' }])
    const alice = await store.sessions.getPeer('w', 's', 'alice')
    expect(alice).toEqual({
      workspaceId: 'w',
      sessionId: 's',
      peerId: 'alice',
      configuration: { observe_me: false },
      joinedAt: '2026-03-01T10:00:02.000Z',
      leftAt: null,
    })
    await store.sessions.setPeerConfiguration('w', 's', 'alice', { observe_others: true })
    expect((await store.sessions.getPeer('w', 's', 'alice'))?.configuration).toEqual({
      observe_me: false,
      observe_others: true,
    })
    await store.sessions.setPeerConfiguration('w', 's', 'bob', { observe_me: true })
    expect((await store.sessions.listPeers('w', 's')).map((p) => p.peerId)).toEqual([
      'hermes',
      'alice',
      'bob',
    ])
    expect(await store.sessions.getPeer('w', 's', 'nobody')).toBeNull()
  })

  it('refuses empty ids and non-object configuration before writing', async () => {
    const store = stores.open()
    await expectStoreError(store.sessions.getOrCreate('w', ''), 'INVALID_INPUT')
    await expectStoreError(store.sessions.addPeers('w', 's', [{ peerId: '' }]), 'INVALID_INPUT')
    await expectStoreError(
      store.sessions.setPeerConfiguration('w', 's', 'p', 3 as unknown as Record<string, unknown>),
      'INVALID_INPUT',
    )
    expect(await store.workspaces.get('w')).toBeNull()
  })

  it('moves the chunking watermark only from the expected position', async () => {
    const { clock, advance } = manualClock()
    const store = stores.open({ clock })
    await store.sessions.getOrCreate('w', 'b')
    advance(1000)
    await store.sessions.getOrCreate('w', 'a')
    expect(await store.sessions.listChunkWatermarks('w')).toEqual([
      { sessionId: 'b', lastChunkedMessageId: 0 },
      { sessionId: 'a', lastChunkedMessageId: 0 },
    ])
    expect(await store.sessions.advanceChunkWatermark('w', 'a', 0, 7)).toBe(true)
    expect(await store.sessions.advanceChunkWatermark('w', 'a', 0, 9)).toBe(false)
    expect((await store.sessions.listChunkWatermarks('w'))[1]).toEqual({
      sessionId: 'a',
      lastChunkedMessageId: 7,
    })
    await expectStoreError(store.sessions.advanceChunkWatermark('w', 'a', 7, 1.5), 'INVALID_INPUT')
  })

  it('lists sessions whose processed chunks pass their summary, and marks one summarized', async () => {
    const store = stores.open({ clock: manualClock().clock })
    const [c1, c2] = await seedChunks(store, 'w', ['one', 'two'], { sessionId: 's1' })
    const [c3] = await seedChunks(store, 'w', ['three'], { sessionId: 's2', start: 5 })
    for (const chunk of [c1!, c2!, c3!])
      await store.chunks.markProcessed(chunk.id, { promptVersion: 'v1', extractor: 'rules' })
    expect(await store.sessions.listSummaryBacklog('w', 'v1')).toEqual([
      { sessionId: 's1', lastMessageId: c2!.lastMessageId },
      { sessionId: 's2', lastMessageId: c3!.lastMessageId },
    ])
    expect(await store.sessions.listSummaryBacklog('w', 'v2')).toEqual([])
    await store.sessions.markSummarized('w', 's1', c2!.lastMessageId)
    await store.sessions.setSummary('w', 's2', { text: 'Three.', messageId: c3!.lastMessageId - 1 })
    expect(await store.sessions.listSummaryBacklog('w', 'v1')).toEqual([
      { sessionId: 's2', lastMessageId: c3!.lastMessageId },
    ])
    expect(await store.sessions.get('w', 's1')).toMatchObject({
      summary: null,
      summaryMessageId: c2!.lastMessageId,
      summaryUpdatedAt: null,
    })
  })

  it('lists with a filter, by member peer and with deleted sessions; same-time sessions by id', async () => {
    const { clock, advance } = manualClock()
    const store = stores.open({ clock })
    await store.sessions.getOrCreate('w', 'b', { metadata: { team: 'red' } })
    await store.sessions.getOrCreate('w', 'a')
    advance(1000)
    await store.sessions.getOrCreate('w', 'c', { metadata: { team: 'red' } })
    await store.sessions.addPeers('w', 'c', [{ peerId: 'alice' }])
    await store.sessions.addPeers('w', 'b', [{ peerId: 'alice' }])
    await store.sessions.removePeers('w', 'b', ['alice'])
    await store.sessions.setActive('w', 'c', false)
    expect((await store.sessions.list('w')).items.map((s) => s.id)).toEqual(['a', 'b'])
    const all = await store.sessions.list('w', {}, { includeInactive: true })
    expect(all.items.map((s) => s.id)).toEqual(['a', 'b', 'c'])
    const red = { op: 'jsonEquals', field: 'metadata', path: ['team'], value: 'red' } as const
    expect((await store.sessions.list('w', {}, { filter: red })).items.map((s) => s.id)).toEqual(['b'])
    const alices = await store.sessions.list(
      'w',
      { reverse: true },
      { memberId: 'alice', includeInactive: true },
    )
    expect(alices.items.map((s) => s.id)).toEqual(['c', 'b'])
    expect(alices.total).toBe(2)
  })

  it('pages the peers of the active members in join order', async () => {
    const { clock, advance } = manualClock()
    const store = stores.open({ clock })
    for (const id of ['carol', 'alice', 'bob']) {
      await store.sessions.addPeers('w', 's', [{ peerId: id }])
      advance(1000)
    }
    await store.sessions.removePeers('w', 's', ['alice'])
    const page = await store.sessions.listMemberPeers('w', 's', { size: 1 })
    expect(page.items.map((p) => p.id)).toEqual(['carol'])
    expect(page).toMatchObject({ total: 2, pages: 2 })
    const reversed = await store.sessions.listMemberPeers('w', 's', { reverse: true })
    expect(reversed.items.map((p) => p.id)).toEqual(['bob', 'carol'])
    expect(reversed.items[0]).toMatchObject({ workspaceId: 'w', role: 'user' })
  })
})

describe('sessions repository: listIdsForPeer', () => {
  const stores = useTempStores()

  it('lists the sessions a peer has been a member of, including ones it left', async () => {
    const store = stores.open()
    await store.messages.insertBatch('w', 's1', [{ peerId: 'ann', content: 'hi' }])
    await store.messages.insertBatch('w', 's2', [{ peerId: 'ann', content: 'hello' }])
    await store.messages.insertBatch('w', 's3', [{ peerId: 'bob', content: 'hey' }])
    await store.sessions.removePeers('w', 's2', ['ann'])
    expect((await store.sessions.listIdsForPeer('w', 'ann')).sort()).toEqual(['s1', 's2'])
    expect(await store.sessions.listIdsForPeer('other', 'ann')).toEqual([])
  })
})
