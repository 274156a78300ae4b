import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { addChunk, addEpisode, vec } from '../../test/fixtures'
import { expectStoreError, manualClock, useTempStores } from '../../test/store-harness'

describe('workspaces repository', () => {
  const stores = useTempStores()

  it('getOrCreate creates once and then returns the stored workspace unchanged', async () => {
    const { clock, advance } = manualClock()
    const store = stores.open({ clock })
    const first = await store.workspaces.getOrCreate('w1', {
      metadata: { team: 'a' },
      configuration: { x: 1 },
    })
    advance(1000)
    const second = await store.workspaces.getOrCreate('w1', { metadata: { team: 'b' } })
    expect(first).toEqual({
      created: true,
      value: {
        id: 'w1',
        metadata: { team: 'a' },
        configuration: { x: 1 },
        createdAt: '2026-03-01T10:00:00.000Z',
      },
    })
    expect(second).toEqual({ created: false, value: first.value })
    expect(await store.workspaces.get('missing')).toBeNull()
  })

  it('update replaces metadata, shallow-merges configuration, and creates when missing', async () => {
    const store = stores.open()
    await store.workspaces.getOrCreate('w', {
      metadata: { a: 1 },
      configuration: { keep: true, deep: { x: 1 } },
    })
    const updated = await store.workspaces.update('w', {
      metadata: { b: 2 },
      configuration: { deep: { y: 2 } },
    })
    expect(updated.metadata).toEqual({ b: 2 })
    expect(updated.configuration).toEqual({ keep: true, deep: { y: 2 } })
    const onlyConfig = await store.workspaces.update('w', { configuration: { more: 1 } })
    expect(onlyConfig.metadata).toEqual({ b: 2 })
    const created = await store.workspaces.update('fresh', { metadata: { n: 1 } })
    expect(created).toMatchObject({ id: 'fresh', metadata: { n: 1 }, configuration: {} })
  })

  it('lists with the pagination envelope, oldest first unless reversed', async () => {
    const { clock, advance } = manualClock()
    const store = stores.open({ clock })
    for (const id of ['a', 'b', 'c', 'd', 'e']) {
      await store.workspaces.getOrCreate(id)
      advance(1)
    }
    const page = await store.workspaces.list({ page: 2, size: 2 })
    expect(page.items.map((w) => w.id)).toEqual(['c', 'd'])
    expect(page).toMatchObject({ total: 5, page: 2, size: 2, pages: 3 })
    const reversed = await store.workspaces.list({ size: 2, reverse: true })
    expect(reversed.items.map((w) => w.id)).toEqual(['e', 'd'])
    const beyond = await store.workspaces.list({ page: 9, size: 2 })
    expect(beyond).toMatchObject({ items: [], total: 5, pages: 3 })
    await expectStoreError(store.workspaces.list({ page: 0 }), 'INVALID_INPUT')
    await expectStoreError(store.workspaces.list({ size: 1.5 }), 'INVALID_INPUT')
  })

  it('delete removes the workspace and everything scoped to it, leaving others alone', async () => {
    const store = stores.open()
    for (const w of ['gone', 'kept']) {
      await store.messages.insertBatch(w, 's', [{ peerId: 'user-1', content: `hello from ${w}` }])
      await store.dreamRuns.recordSkip(w, 'locked')
    }
    expect(await store.workspaces.delete('gone')).toBe(true)
    expect(await store.workspaces.delete('gone')).toBe(false)
    expect(await store.workspaces.get('gone')).toBeNull()
    expect(await store.messages.count('gone')).toBe(0)
    expect(await store.peers.get('gone', 'user-1')).toBeNull()
    expect(await store.dreamRuns.recent('gone')).toEqual([])
    expect(await store.messages.count('kept')).toBe(1)
    expect(await store.fullText.search('messages', 'hello', { workspaceId: 'kept', limit: 5 })).toHaveLength(
      1,
    )
    expect(await store.fullText.search('messages', 'hello', { workspaceId: 'gone', limit: 5 })).toEqual([])
  })

  it('delete also drops the workspace from the vector indexes', async () => {
    const store = stores.open()
    const mine = await addChunk(store, 'gone', 'a')
    const theirs = await addChunk(store, 'kept', 'b')
    await addEpisode(store, 'gone', 'ep', 'title', 'summary')
    const row = (id: number, workspaceId: string) => ({
      id,
      workspaceId,
      vector: vec(1, 0, 0),
      textHash: 'h',
    })
    await store.vectors.upsert('chunks', [row(mine, 'gone'), row(theirs, 'kept')], 'm')
    await store.vectors.upsert('episodes', [{ ...row(0, 'gone'), id: 'ep' }], 'm')
    await store.workspaces.delete('gone')
    const left = await sql<{
      n: number
    }>`SELECT (SELECT count(*) FROM vec_chunks) + (SELECT count(*) FROM vec_episodes) AS n`.execute(store.db)
    expect(left.rows[0]?.n).toBe(1)
    expect(
      (await store.vectors.nearest('chunks', vec(1, 0, 0), { workspaceId: 'kept', k: 5, model: 'm' })).map(
        (h) => h.id,
      ),
    ).toEqual([theirs])
  })

  it('refuses empty ids and non-object metadata before writing', async () => {
    const store = stores.open()
    await expectStoreError(store.workspaces.getOrCreate(''), 'INVALID_INPUT')
    await expectStoreError(
      store.workspaces.getOrCreate('w', { metadata: [1, 2] as unknown as Record<string, unknown> }),
      'INVALID_INPUT',
    )
    await expectStoreError(
      store.workspaces.update('w', { configuration: 'x' as unknown as Record<string, unknown> }),
      'INVALID_INPUT',
    )
    expect((await store.workspaces.list()).total).toBe(0)
  })

  it('lists only the workspaces a filter matches', async () => {
    const store = stores.open()
    for (const id of ['a', 'b', 'c']) await store.workspaces.getOrCreate(id)
    const some = await store.workspaces.list({}, { op: 'in', field: 'id', values: ['c', 'a'] })
    expect(some.items.map((w) => w.id)).toEqual(['a', 'c'])
    expect(some.total).toBe(2)
    expect((await store.workspaces.list({}, { op: 'in', field: 'id', values: [] })).total).toBe(0)
  })
})
