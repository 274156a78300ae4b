import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'
import { seedChunks } from '../graph-seed'
import { expectStoreError, manualClock } from '../store-harness'

/** The sessions cases of the store contract, run against every backend. */
export function describeSessionsContract(backend: BackendUnderTest) {
  describe('sessions repository', () => {
    const stores = backend.use()

    it('moves the chunking watermark only from the expected position', async () => {
      const { clock, advance } = manualClock()
      const store = await stores.open({ clock })
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
      expect(await store.sessions.listChunkWatermarks('w', 'a')).toEqual([
        { sessionId: 'a', lastChunkedMessageId: 7 },
      ])
      expect(await store.sessions.listChunkWatermarks('w', 'none')).toEqual([])
      await expectStoreError(store.sessions.advanceChunkWatermark('w', 'a', 7, 1.5), 'INVALID_INPUT')
    })

    it('lists sessions whose processed chunks pass their summary, and marks one summarized', async () => {
      const store = await stores.open({ clock: manualClock().clock })
      const [c1, c2] = await seedChunks(store, 'w', ['one', 'two'], { sessionId: 's1' })
      const [c3] = await seedChunks(store, 'w', ['three'], { sessionId: 's2', start: 5 })
      for (const chunk of [c1!, c2!, c3!])
        await store.chunks.markProcessed('w', chunk.id, { promptVersion: 'v1', extractor: 'rules' })
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
      const store = await stores.open({ clock })
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
      const store = await stores.open({ clock })
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
    const stores = backend.use()

    it('lists the sessions a peer has been a member of, including ones it left', async () => {
      const store = await stores.open()
      await store.messages.insertBatch('w', 's1', [{ peerId: 'ann', content: 'hi' }])
      await store.messages.insertBatch('w', 's2', [{ peerId: 'ann', content: 'hello' }])
      await store.messages.insertBatch('w', 's3', [{ peerId: 'bob', content: 'hey' }])
      await store.sessions.removePeers('w', 's2', ['ann'])
      expect((await store.sessions.listIdsForPeer('w', 'ann')).sort()).toEqual(['s1', 's2'])
      expect(await store.sessions.listIdsForPeer('other', 'ann')).toEqual([])
    })
  })
}
