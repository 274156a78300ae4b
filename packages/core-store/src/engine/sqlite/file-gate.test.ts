import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/temp-dir'
import { builderOf } from '../../store/builder'
import type { Store } from '../../store/types'
import { openStore } from './open-store'

describe('connections of one process to one file', () => {
  let temp: ReturnType<typeof tempDir>
  let store: Store
  let fork: Store

  beforeEach(() => {
    temp = tempDir()
    store = openStore({ path: temp.file('gate.sqlite') })
    fork = store.fork()
  })
  afterEach(async () => {
    await fork.close()
    await store.close()
    temp.cleanup()
  })

  const workspace = (id: string) => ({ id, created_at: store.context.now() })

  it('wait for each other instead of stalling the thread in SQLite busy waits', async () => {
    let forkWrote = false
    const { forkWrite } = await store.transaction(async (tx) => {
      await builderOf(tx).insertInto('workspaces').values(workspace('a')).execute()
      const forkWrite = builderOf(fork)
        .insertInto('workspaces')
        .values(workspace('b'))
        .execute()
        .then(() => {
          forkWrote = true
        })
      await new Promise((resolve) => setTimeout(resolve, 30))
      expect(forkWrote).toBe(false)
      await builderOf(tx).insertInto('workspaces').values(workspace('c')).execute()
      return { forkWrite }
    })
    await forkWrite
    const ids = await builderOf(store).selectFrom('workspaces').select('id').orderBy('id').execute()
    expect(ids.map((row) => row.id)).toEqual(['a', 'b', 'c'])
  })

  it('takes the run lock and batches on a fork while the main connection is mid-transaction', async () => {
    const { lockTaken, batch } = await store.transaction(async (tx) => {
      await builderOf(tx).insertInto('workspaces').values(workspace('w')).execute()
      const lockTaken = fork.runLock.acquire('dream:w', 'fork-holder')
      const batch = fork.messages.insertBatch('w', 's', [{ peerId: 'user-1', content: 'hello' }])
      await new Promise((resolve) => setTimeout(resolve, 30))
      return { lockTaken, batch }
    })
    expect((await lockTaken).acquired).toBe(true)
    expect(await batch).toHaveLength(1)
    expect((await store.runLock.inspect('dream:w'))?.holder).toBe('fork-holder')
  })

  it('lets a second process-local store of the same path share the gate after the first closes', async () => {
    await fork.close()
    fork = store.fork()
    await builderOf(fork).insertInto('workspaces').values(workspace('again')).execute()
    expect(await store.workspaces.get('again')).toMatchObject({ id: 'again' })
  })
})
