import { afterEach, describe, expect, it } from 'vitest'
import { openTestMemory, type TestMemory } from '../../test/harness'

const open: TestMemory[] = []
afterEach(async () => {
  for (const t of open.splice(0)) await t.close()
})

describe('dreamBacklog().running', () => {
  it('on PostgreSQL, counts a dream another process holds the workspace lock for', async () => {
    const t = await openTestMemory({ database: 'pglite:memory' })
    open.push(t)
    const memory = t.memory
    await memory.log({ role: 'user', content: 'We moved billing to Postgres.' })
    expect(await memory.dreamBacklog()).toMatchObject({ running: false, pendingMessages: 1 })
    // Another server's dream: the same lock name, another holder, on the same database.
    const other = await memory.store.runLock.acquire('dream:default', 'another-server')
    if (!other.acquired) throw new Error('the test could not take the dream lock')
    expect((await memory.dreamBacklog()).running).toBe(true)
    expect((await memory.dreamBacklog('elsewhere')).running).toBe(false)
    await other.lock.release()
    expect((await memory.dreamBacklog()).running).toBe(false)
  })

  it('on SQLite, ignores a lock row a crashed holder may have left (only a running dream here counts)', async () => {
    const t = await openTestMemory()
    open.push(t)
    const other = await t.memory.store.runLock.acquire('dream:default', 'another-process')
    if (!other.acquired) throw new Error('the test could not take the dream lock')
    expect((await t.memory.dreamBacklog()).running).toBe(false)
    await other.lock.release()
  })
})
