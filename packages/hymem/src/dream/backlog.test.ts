import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestMemory, type TestMemory } from '../../test/harness'
import { _storeOf } from '../hymem'

const execFileAsync = promisify(execFile)
const open: TestMemory[] = []
afterEach(async () => {
  for (const t of open.splice(0)) await t.close()
})

describe('queue.backlog().running', () => {
  it('on PostgreSQL, counts a dream another process holds the workspace lock for', async () => {
    const t = await openTestMemory({ database: 'pglite:memory' })
    open.push(t)
    const memory = t.memory
    await memory.log({ role: 'user', content: 'We moved billing to Postgres.' })
    expect(await memory.queue.backlog()).toMatchObject({ running: false, pendingMessages: 1 })
    // Another server's dream: the same lock name, another holder, on the same database.
    const other = await _storeOf(memory).runLock.acquire('dream:default', 'another-server')
    if (!other.acquired) throw new Error('the test could not take the dream lock')
    expect((await memory.queue.backlog()).running).toBe(true)
    expect((await memory.queue.backlog('elsewhere')).running).toBe(false)
    await other.lock.release()
    expect((await memory.queue.backlog()).running).toBe(false)
  })

  it('on SQLite, counts a lock held by a running process of this machine (a worker beside a server)', async () => {
    const t = await openTestMemory()
    open.push(t)
    const other = await t.store.runLock.acquire('dream:default', 'hymem-worker')
    if (!other.acquired) throw new Error('the test could not take the dream lock')
    expect((await t.memory.queue.backlog()).running).toBe(true)
    await other.lock.release()
    expect((await t.memory.queue.backlog()).running).toBe(false)
  })

  it('on SQLite, ignores a lock row a crashed holder left behind', async () => {
    const t = await openTestMemory()
    open.push(t)
    const child = fileURLToPath(new URL('../../test/fixtures/lock-and-exit-child.ts', import.meta.url))
    await execFileAsync(process.execPath, ['--conditions=@hymem/source', '--import', 'tsx', child, t.root])
    expect(await t.store.runLock.inspect('dream:default')).toMatchObject({ holder: 'crashed-process' })
    expect((await t.memory.queue.backlog()).running).toBe(false)
  }, 60_000)
})
