import { describe, expect, it } from 'vitest'
import { countTokens } from '../../src/kernel/count-tokens'
import type { Store } from '../../src/store/types'
import type { BackendUnderTest } from '../backends'
import { expectStoreError } from '../store-harness'

const _bad = <T>(value: unknown) => value as T

/** The messages cases of the store contract, run against every backend. */
export function describeMessagesContract(backend: BackendUnderTest) {
  describe('messages repository', () => {
    const stores = backend.use()

    it('writes a batch with more distinct authors than one INSERT of peers takes, each with its role', async () => {
      const store = await stores.open()
      const authors = Array.from({ length: 4500 }, (_, i) => (i % 3 === 0 ? `agent-${i}-bot` : `user-${i}`))
      const messages = await store.messages.insertBatch(
        'w',
        's',
        authors.map((peerId, i) => ({ peerId, content: `message ${i}` })),
      )
      expect(messages).toHaveLength(authors.length)
      expect(new Set(messages.map((m) => m.id)).size).toBe(authors.length)
      expect(messages.map((m) => m.role)).toEqual(
        authors.map((a) => (a.endsWith('-bot') ? 'assistant' : 'user')),
      )
      expect((await store.messages.listBySession('w', 's', { page: 1, size: 1 })).total).toBe(authors.length)
      expect((await store.peers.list('w', { page: 1, size: 1 })).total).toBe(authors.length)
    })

    it('lists the user authors among messages', async () => {
      const store = await stores.open()
      const messages = await store.messages.insertBatch('w', 's', [
        { peerId: 'alice', role: 'user', content: 'a' },
        { peerId: 'hermes', role: 'assistant', content: 'b' },
        { peerId: 'alice', role: 'user', content: 'c' },
        { peerId: 'bob', role: 'user', content: 'd' },
      ])
      const ids = messages.map((m) => m.id)
      expect(await store.messages.listUserAuthors('w', ids.slice(0, 3))).toEqual(['alice'])
      expect((await store.messages.listUserAuthors('w', ids)).sort()).toEqual(['alice', 'bob'])
      expect(await store.messages.listUserAuthors('other', ids)).toEqual([])
      expect(await store.messages.listUserAuthors('w', [])).toEqual([])
      await expectStoreError(store.messages.listUserAuthors('w', [1.5]), 'INVALID_INPUT')
    })

    it('filters a session page, finds messages by id within a filter, reads the newest first and counts per session', async () => {
      const store = await stores.open()
      const inserted = await store.messages.insertBatch(
        'w',
        's',
        ['one', 'two', 'three', 'four', 'five'].map((content, i) => ({
          peerId: i % 2 === 0 ? 'alice' : 'bob',
          content,
          tokenCount: i + 1,
        })),
      )
      await store.messages.insertBatch('w', 't', [{ peerId: 'alice', content: 'elsewhere' }])
      await store.messages.insertBatch('x', 's', [{ peerId: 'alice', content: 'other workspace' }])
      const ids = inserted.map((m) => m.id)
      const alice = { op: 'eq', field: 'peerId', value: 'alice' } as const
      const page = await store.messages.listBySession('w', 's', { size: 2 }, alice)
      expect(page.items.map((m) => m.content)).toEqual(['one', 'three'])
      expect(page).toMatchObject({ total: 3, pages: 2 })
      const found = await store.messages.findByIds('w', [ids[4]!, ids[0]!, ids[1]!, 999, ids[0]!], alice)
      expect(found.map((m) => m.content)).toEqual(['one', 'five'])
      expect(await store.messages.findByIds('x', ids)).toEqual([])
      const newest = await store.messages.recent('w', { sessionId: 's', limit: 2 })
      expect(newest.map((m) => m.content)).toEqual(['five', 'four'])
      const window = await store.messages.recent('w', {
        sessionId: 's',
        beforeId: ids[3]!,
        fromId: ids[1]!,
        limit: 10,
      })
      expect(window.map((m) => m.content)).toEqual(['three', 'two'])
      const upToThird = await store.messages.recent('w', { sessionId: 's', beforeId: ids[2]! + 1, limit: 2 })
      expect(upToThird.map((m) => m.content)).toEqual(['three', 'two'])
      expect((await store.messages.recent('w', { limit: 1 }))[0]?.content).toBe('elsewhere')
      await expectStoreError(store.messages.recent('w', { limit: 0 }), 'INVALID_INPUT')
      await expectStoreError(store.messages.recent('w', { beforeId: 2.5, limit: 1 }), 'INVALID_INPUT')
      await expectStoreError(store.messages.recent('', { limit: 1 }), 'INVALID_INPUT')
      expect(await store.messages.countBySession('w')).toEqual(
        new Map([
          ['s', 5],
          ['t', 1],
        ]),
      )
      expect(await store.messages.countBySession('w', { sessionId: 't' })).toEqual(new Map([['t', 1]]))
    })

    it('counts tokens with o200k when no count is given', async () => {
      const store = await stores.open()
      const [message] = await store.messages.insertBatch('w', 's', [
        { peerId: 'u', content: 'We switched from MySQL to Postgres for billing.' },
      ])
      expect(message?.tokenCount).toBe(await countTokens('We switched from MySQL to Postgres for billing.'))
      expect(message?.tokenCount).not.toBe(Math.ceil(message!.content.length / 4))
    })
  })

  describe('messages repository: lookups for the query path', () => {
    const stores = backend.use()

    it('findByIds without a filter returns only the workspace’s messages among the ids, oldest first', async () => {
      const store = await stores.open()
      const [a, b] = await store.messages.insertBatch('w', 's', [
        { peerId: 'ann', content: 'one' },
        { peerId: 'bob', content: 'two' },
      ])
      const [foreign] = await store.messages.insertBatch('other', 's', [{ peerId: 'ann', content: 'three' }])
      const found = await store.messages.findByIds('w', [b!.id, a!.id, foreign!.id, 999])
      expect(found.map((message) => message.id).sort()).toEqual([a!.id, b!.id])
      expect(found.find((message) => message.id === b!.id)).toEqual(b)
      expect(await store.messages.findByIds('w', [])).toEqual([])
    })

    it('findNeighbours gives the nearest turns of the same session on either side', async () => {
      const store = await stores.open()
      const ids = await annsFourTurns(store)
      const [other] = await store.messages.insertBatch('w', 's2', [{ peerId: 'bob', content: 'elsewhere' }])
      const found = await store.messages.findNeighbours('w', [ids[1]!, other!.id], 2)
      const byId = new Map(found.map((message) => [message.id, message]))
      expect(byId.get(ids[1]!)).toEqual({
        id: ids[1],
        sessionId: 's1',
        peerId: 'ann',
        before: [ids[0]],
        after: [ids[2], ids[3]],
      })
      expect(byId.get(other!.id)).toEqual({
        id: other!.id,
        sessionId: 's2',
        peerId: 'bob',
        before: [],
        after: [],
      })
      const bare = await store.messages.findNeighbours('w', [ids[1]!], 0)
      expect(bare).toEqual([{ id: ids[1], sessionId: 's1', peerId: 'ann', before: [], after: [] }])
      expect(await store.messages.findNeighbours('other', [ids[1]!], 1)).toEqual([])
      await expectStoreError(store.messages.findNeighbours('w', [ids[1]!], -1), 'INVALID_INPUT')
    })

    it('listUnembedded pages through the messages without a vector, oldest first', async () => {
      const store = await stores.open()
      const ids = await annsFourTurns(store)
      await store.messages.insertBatch('other', 's1', [{ peerId: 'bob', content: 'elsewhere' }])
      await store.vectors.upsert(
        'messages',
        [{ id: ids[1]!, workspaceId: 'w', vector: Float32Array.from([1, 0]), textHash: 'h' }],
        'm',
      )
      const pending = await store.messages.listUnembedded('w')
      expect(pending.map((message) => message.content)).toEqual(['a', 'c', 'd'])
      const page = await store.messages.listUnembedded('w', { afterId: ids[0]!, limit: 1 })
      expect(page.map((message) => message.id)).toEqual([ids[2]])
      await expectStoreError(store.messages.listUnembedded('w', { limit: 0 }), 'INVALID_INPUT')
      await expectStoreError(store.messages.listUnembedded('w', { afterId: -1 }), 'INVALID_INPUT')
    })

    it('listEmbedded pages through the messages that have a vector, oldest first, in the workspace only', async () => {
      const store = await stores.open()
      const ids = await annsFourTurns(store)
      const [foreign] = await store.messages.insertBatch('other', 's1', [
        { peerId: 'bob', content: 'elsewhere' },
      ])
      const row = (id: number, workspaceId = 'w') => ({
        id,
        workspaceId,
        vector: Float32Array.from([1, 0]),
        textHash: 'h',
      })
      expect(await store.messages.listEmbedded('w')).toEqual([])
      await store.vectors.upsert('messages', [row(ids[3]!), row(ids[1]!), row(foreign!.id, 'other')], 'm')
      const embedded = await store.messages.listEmbedded('w')
      expect(embedded.map((message) => message.content)).toEqual(['b', 'd'])
      expect(embedded[0]).toMatchObject({ id: ids[1], workspaceId: 'w', sessionId: 's1', peerId: 'ann' })
      const page = await store.messages.listEmbedded('w', { afterId: ids[1]!, limit: 1 })
      expect(page.map((message) => message.id)).toEqual([ids[3]])
      await expectStoreError(store.messages.listEmbedded('w', { limit: 0 }), 'INVALID_INPUT')
      await expectStoreError(store.messages.listEmbedded('w', { afterId: -1 }), 'INVALID_INPUT')
    })
  })
}

/** Ann's turns 'a' to 'd' in session s1 of workspace w; their ids, oldest first. */
async function annsFourTurns(store: Store): Promise<number[]> {
  const turns = ['a', 'b', 'c', 'd'].map((content) => ({ peerId: 'ann', content }))
  return (await store.messages.insertBatch('w', 's1', turns)).map((message) => message.id)
}
