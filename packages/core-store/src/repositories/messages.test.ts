import { describe, expect, it } from 'vitest'
import { expectStoreError, manualClock, sequentialIds, useTempStores } from '../../test/store-harness'
import { countTokens } from '../tokens'
import type { NewMessage } from './types'

const bad = <T>(value: unknown) => value as T

describe('messages repository', () => {
  const stores = useTempStores()

  it('insertBatch creates workspace, session, peers and membership, inferring roles', async () => {
    const { clock } = manualClock()
    const store = stores.open({ clock, newId: sequentialIds('m') })
    const inserted = await store.messages.insertBatch('w', 's1', [
      { peerId: 'user-alice', content: 'I moved the API to Postgres', metadata: { channel: 'cli' } },
      { peerId: 'hermes', content: 'Noted: Postgres it is.' },
      { peerId: 'carol', content: 'tool output', role: 'tool', tokenCount: 3 },
    ])
    expect(inserted).toEqual([
      {
        id: 1,
        publicId: 'm-1',
        workspaceId: 'w',
        sessionId: 's1',
        peerId: 'user-alice',
        role: 'user',
        content: 'I moved the API to Postgres',
        metadata: { channel: 'cli' },
        tokenCount: 7,
        createdAt: '2026-03-01T10:00:00.000Z',
      },
      expect.objectContaining({ id: 2, publicId: 'm-2', peerId: 'hermes', role: 'assistant' }),
      expect.objectContaining({ id: 3, publicId: 'm-3', peerId: 'carol', role: 'tool', tokenCount: 3 }),
    ])
    expect((await store.workspaces.get('w'))?.id).toBe('w')
    expect((await store.sessions.get('w', 's1'))?.isActive).toBe(true)
    expect((await store.peers.get('w', 'hermes'))?.role).toBe('assistant')
    expect((await store.peers.get('w', 'carol'))?.role).toBe('tool')
    expect((await store.sessions.listPeers('w', 's1')).map((p) => p.peerId)).toEqual([
      'user-alice',
      'hermes',
      'carol',
    ])
    const page = await store.messages.listBySession('w', 's1')
    expect(page.items).toEqual(inserted)
  })

  it('takes the role from an existing peer, and an explicit role wins', async () => {
    const store = stores.open()
    await store.peers.getOrCreate('w', 'alice', { role: 'assistant' })
    const [implied, explicit] = await store.messages.insertBatch('w', 's', [
      { peerId: 'alice', content: 'a' },
      { peerId: 'alice', content: 'b', role: 'system' },
    ])
    expect(implied?.role).toBe('assistant')
    expect(explicit?.role).toBe('system')
    expect((await store.peers.get('w', 'alice'))?.role).toBe('assistant')
  })

  it('writes batches larger than one INSERT chunk in order with consecutive ids', async () => {
    const store = stores.open()
    const batch: NewMessage[] = Array.from({ length: 257 }, (_, i) => ({
      peerId: 'user-1',
      content: `message ${i}`,
    }))
    const inserted = await store.messages.insertBatch('w', 's', batch)
    expect(inserted.map((m) => m.id)).toEqual(Array.from({ length: 257 }, (_, i) => i + 1))
    const stored = await store.messages.listAfter('w', 's', 0, 1000)
    expect(stored.map((m) => [m.id, m.content, m.publicId])).toEqual(
      inserted.map((m) => [m.id, m.content, m.publicId]),
    )
  })

  it('keeps given creation times (normalised to UTC ISO) for backfills', async () => {
    const store = stores.open()
    const [m] = await store.messages.insertBatch('w', 's', [
      { peerId: 'u', content: 'old', createdAt: '2023-05-07T13:00:00+02:00' },
    ])
    expect(m?.createdAt).toBe('2023-05-07T11:00:00.000Z')
  })

  it('refuses invalid input before writing anything', async () => {
    const store = stores.open()
    const cases: [string, string, unknown][] = [
      ['', 's', [{ peerId: 'u', content: 'x' }]],
      ['w', '', [{ peerId: 'u', content: 'x' }]],
      [
        'w',
        's',
        [
          { peerId: 'u', content: 'fine' },
          { peerId: '', content: 'x' },
        ],
      ],
      [
        'w',
        's',
        [
          { peerId: 'u', content: 'fine' },
          { peerId: 'u', content: 42 },
        ],
      ],
      ['w', 's', [{ peerId: 'u', content: 'x', metadata: 'nope' }]],
      ['w', 's', [{ peerId: 'u', content: 'x', metadata: ['a'] }]],
      ['w', 's', [{ peerId: 'u', content: 'x', role: 'robot' }]],
      ['w', 's', [{ peerId: 'u', content: 'x', createdAt: 'yesterday' }]],
      ['w', 's', [{ peerId: 'u', content: 'x', tokenCount: -1 }]],
      ['w', 's', 'not an array'],
      ['w', 's', [null]],
    ]
    for (const [workspaceId, sessionId, messages] of cases) {
      await expectStoreError(
        store.messages.insertBatch(workspaceId, sessionId, bad(messages)),
        'INVALID_INPUT',
      )
    }
    expect((await store.workspaces.list()).total).toBe(0)
    expect(await store.messages.count('w')).toBe(0)
  })

  it('an empty batch writes nothing', async () => {
    const store = stores.open()
    expect(await store.messages.insertBatch('w', 's', [])).toEqual([])
    expect(await store.workspaces.get('w')).toBeNull()
  })

  it('joins an enclosing transaction and rolls back with it', async () => {
    const store = stores.open()
    await expect(
      store.transaction(async (tx) => {
        await tx.messages.insertBatch('w', 's', [{ peerId: 'u', content: 'first' }])
        await tx.messages.insertBatch('w', 's', [{ peerId: 'u', content: 'second' }])
        expect(await tx.messages.count('w')).toBe(2)
        throw new Error('abort the whole thing')
      }),
    ).rejects.toThrow('abort the whole thing')
    expect(await store.messages.count('w')).toBe(0)
    expect(await store.workspaces.get('w')).toBeNull()

    await store.transaction(async (tx) => {
      await tx.messages.insertBatch('w', 's', [{ peerId: 'u', content: 'kept' }])
    })
    expect(await store.messages.count('w')).toBe(1)
  })

  it('rolls back a whole batch when the database refuses part of it', async () => {
    const store = stores.open({ newId: () => 'same-public-id' })
    await expect(
      store.messages.insertBatch('w', 's', [
        { peerId: 'u', content: 'a' },
        { peerId: 'u', content: 'b' },
      ]),
    ).rejects.toThrow(/UNIQUE/)
    expect(await store.messages.count('w')).toBe(0)
    expect(await store.sessions.get('w', 's')).toBeNull()
  })

  it('concurrent batches on one store serialise instead of nesting transactions', async () => {
    const store = stores.open()
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.messages.insertBatch('w', `s${i % 3}`, [
          { peerId: 'u', content: `${i}a` },
          { peerId: 'u', content: `${i}b` },
        ]),
      ),
    )
    expect(await store.messages.count('w')).toBe(20)
    expect(await store.messages.count('w', { sessionId: 's0' })).toBe(8)
  })

  it('reads by public id, by internal ids, after an id, and pages newest first', async () => {
    const store = stores.open()
    const inserted = await store.messages.insertBatch(
      'w',
      's',
      ['one', 'two', 'three', 'four', 'five'].map((content) => ({ peerId: 'u', content })),
    )
    await store.messages.insertBatch('w', 'other', [{ peerId: 'u', content: 'elsewhere' }])
    const third = inserted[2]!
    expect(await store.messages.getByPublicId('w', third.publicId)).toEqual(third)
    expect(await store.messages.getByPublicId('other-workspace', third.publicId)).toBeNull()
    expect((await store.messages.getByIds([5, 1, 999, 1])).map((m) => m.content)).toEqual(['five', 'one'])
    expect((await store.messages.listAfter('w', 's', 2, 2)).map((m) => m.content)).toEqual(['three', 'four'])
    const newest = await store.messages.listBySession('w', 's', { size: 2, page: 1, reverse: true })
    expect(newest.items.map((m) => m.content)).toEqual(['five', 'four'])
    expect(newest).toMatchObject({ total: 5, pages: 3 })
    expect(await store.messages.count('w')).toBe(6)
  })

  it('updateMetadata replaces metadata and returns null for an unknown message', async () => {
    const store = stores.open()
    const [m] = await store.messages.insertBatch('w', 's', [
      { peerId: 'u', content: 'x', metadata: { a: 1 } },
    ])
    const updated = await store.messages.updateMetadata('w', m!.publicId, { b: 2 })
    expect(updated).toEqual({ ...m, metadata: { b: 2 } })
    expect(await store.messages.updateMetadata('w', 'nope', { b: 2 })).toBeNull()
    await expectStoreError(store.messages.updateMetadata('w', m!.publicId, bad([])), 'INVALID_INPUT')
  })

  it('lists the user authors among messages', async () => {
    const store = stores.open()
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
    const store = stores.open()
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
    const store = stores.open()
    const [message] = await store.messages.insertBatch('w', 's', [
      { peerId: 'u', content: 'We switched from MySQL to Postgres for billing.' },
    ])
    expect(message?.tokenCount).toBe(await countTokens('We switched from MySQL to Postgres for billing.'))
    expect(message?.tokenCount).not.toBe(Math.ceil(message!.content.length / 4))
  })
})

describe('messages repository: lookups for the query path', () => {
  const stores = useTempStores()

  it('findByIds without a filter returns only the workspace’s messages among the ids, oldest first', async () => {
    const store = stores.open()
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
    const store = stores.open()
    const ids = (
      await store.messages.insertBatch(
        'w',
        's1',
        ['a', 'b', 'c', 'd'].map((content) => ({ peerId: 'ann', content })),
      )
    ).map((message) => message.id)
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
    const store = stores.open()
    const ids = (
      await store.messages.insertBatch(
        'w',
        's1',
        ['a', 'b', 'c', 'd'].map((content) => ({ peerId: 'ann', content })),
      )
    ).map((message) => message.id)
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
})
