import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'
import { expectStoreError } from '../store-harness'

const LONG = `${'Setup notes for the billing service. '.repeat(8)}\n\nThe rollback uses pgbouncer in transaction mode.`

/** The passages cases of the store contract (passages inside long messages), run against every backend. */
export function describePassagesContract(backend: BackendUnderTest) {
  describe('passages repository', () => {
    const stores = backend.use()

    it('splits long messages into passages whose text is the message over each range', async () => {
      const store = await stores.open()
      const [short, long] = await store.messages.insertBatch('w', 's', [
        { peerId: 'user', role: 'user', content: 'short turn' },
        { peerId: 'bot', role: 'assistant', content: LONG },
      ])
      const tail = LONG.indexOf('The rollback')
      expect((await store.passages.listUnsplit('w', 100)).map((m) => m.id)).toEqual([long!.id])
      expect(await store.passages.listUnsplit('w', 5, { afterId: long!.id })).toEqual([])
      expect((await store.passages.listUnsplit('w', 5, { limit: 1 })).map((m) => m.id)).toEqual([short!.id])

      await store.passages.write('w', [
        {
          messageId: long!.id,
          ranges: [
            { start: 0, end: 37 },
            { start: tail, end: LONG.length },
          ],
        },
        { messageId: short!.id, ranges: [] },
      ])
      const written = await store.passages.listForMessages('w', [long!.id, short!.id])
      expect(written).toEqual([
        {
          id: expect.any(Number),
          messageId: long!.id,
          workspaceId: 'w',
          sessionId: 's',
          peerId: 'bot',
          ordinal: 0,
          start: 0,
          end: 37,
          text: 'Setup notes for the billing service. ',
        },
        expect.objectContaining({
          ordinal: 1,
          start: tail,
          text: 'The rollback uses pgbouncer in transaction mode.',
        }),
      ])
      expect(await store.passages.listUnsplit('w', 100)).toEqual([])
      expect(await store.passages.getByIds('w', [written[1]!.id, 999_999])).toEqual([written[1]])
      expect(await store.passages.getByIds('other', [written[1]!.id])).toEqual([])
      expect(await store.passages.listForMessages('other', [long!.id])).toEqual([])

      // Searchable on their own, filtered like messages.
      const hits = await store.fullText.search('passages', 'pgbouncer rollback', {
        workspaceId: 'w',
        limit: 5,
      })
      expect(hits.map((hit) => hit.id)).toEqual([written[1]!.id])
      expect(
        await store.fullText.search('passages', 'pgbouncer', { workspaceId: 'w', limit: 5, peerId: 'user' }),
      ).toEqual([])

      // Rewriting replaces; the old passage leaves the index.
      await store.passages.write('w', [{ messageId: long!.id, ranges: [{ start: 0, end: 10 }] }])
      expect((await store.passages.listForMessages('w', [long!.id])).map((p) => p.text)).toEqual([
        'Setup note',
      ])
      expect(await store.fullText.search('passages', 'pgbouncer', { workspaceId: 'w', limit: 5 })).toEqual([])
    })

    it('lists passages without a vector, and drops passages and their vectors with their workspace', async () => {
      const store = await stores.open()
      const [message] = await store.messages.insertBatch('w', 's', [{ peerId: 'bot', content: LONG }])
      await store.passages.write('w', [
        {
          messageId: message!.id,
          ranges: [
            { start: 0, end: 5 },
            { start: 6, end: 11 },
          ],
        },
      ])
      const [first, second] = await store.passages.listUnembedded('w')
      await store.vectors.upsert(
        'passages',
        [{ id: first!.id, workspaceId: 'w', vector: new Float32Array([1, 0]), textHash: 'h' }],
        'm',
      )
      expect((await store.passages.listUnembedded('w')).map((p) => p.id)).toEqual([second!.id])
      expect(await store.passages.listUnembedded('w', { afterId: second!.id })).toEqual([])
      const near = await store.vectors.nearest('passages', new Float32Array([1, 0]), {
        workspaceId: 'w',
        k: 3,
        model: 'm',
      })
      expect(near.map((hit) => Number(hit.id))).toEqual([first!.id])

      await store.workspaces.delete('w')
      expect(await store.passages.getByIds('w', [first!.id, second!.id])).toEqual([])
      expect(await store.vectors.textHashes('passages', 'w', [first!.id])).toEqual(new Map())
      expect(await store.fullText.search('passages', 'setup', { workspaceId: 'w', limit: 5 })).toEqual([])
    })

    it('refuses ranges outside the message, out of order or overlapping, and unknown messages', async () => {
      const store = await stores.open()
      const [message] = await store.messages.insertBatch('w', 's', [
        { peerId: 'bot', content: 'twelve chars' },
      ])
      const id = message!.id
      await expectStoreError(
        store.passages.write('w', [{ messageId: id, ranges: [{ start: 0, end: 13 }] }]),
        'INVALID_INPUT',
      )
      await expectStoreError(
        store.passages.write('w', [
          {
            messageId: id,
            ranges: [
              { start: 4, end: 8 },
              { start: 6, end: 10 },
            ],
          },
        ]),
        'INVALID_INPUT',
      )
      await expectStoreError(
        store.passages.write('w', [{ messageId: id, ranges: [{ start: 3, end: 3 }] }]),
        'INVALID_INPUT',
      )
      await expectStoreError(store.passages.write('other', [{ messageId: id, ranges: [] }]), 'NOT_FOUND')
      await expectStoreError(store.passages.write('w', [{ messageId: 1.5, ranges: [] }]), 'INVALID_INPUT')
      await expectStoreError(store.passages.listUnsplit('w', 0), 'INVALID_INPUT')
      await expectStoreError(store.passages.listUnembedded('w', { limit: 0 }), 'INVALID_INPUT')
      await expectStoreError(store.passages.getByIds('w', ['x' as unknown as number]), 'INVALID_INPUT')
      await store.passages.write('w', [])
      expect(await store.passages.listForMessages('w', [id])).toEqual([])
    })
  })
}
