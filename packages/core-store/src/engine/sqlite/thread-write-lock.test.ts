import { once } from 'node:events'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/temp-dir'
import { builderOf } from '../../store/builder'
import type { Store } from '../../store/types'
import { openStore } from './open-store'
import { createThreadWriteLock, releaseThreadWriteLockOf, threadWriteLockTag } from './thread-write-lock'

/** Runs thread-write-lock.fixture.ts in a worker thread (TypeScript through tsx's module hooks). */
function startFixture(data: Record<string, unknown>): Worker {
  const tsx = createRequire(import.meta.url).resolve('tsx/package.json')
  const api = pathToFileURL(join(dirname(tsx), 'dist/esm/api/index.mjs')).href
  const entry = new URL('./thread-write-lock.fixture.ts', import.meta.url).href
  const code = `import(${JSON.stringify(api)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}) })`
  return new Worker(code, { eval: true, workerData: data })
}

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function open(): { store: Store; path: string; lock: ReturnType<typeof createThreadWriteLock> } {
  const dir = tempDir()
  const path = dir.file('hymem.sqlite')
  const lock = createThreadWriteLock()
  const store = openStore({ path, threadWriteLock: lock })
  cleanups.push(dir.cleanup, () => store.close())
  return { store, path, lock }
}

describe('thread write lock', () => {
  it('lets the request side in between the transactions of a background thread writing back to back', async () => {
    const { store, path, lock } = open()
    const progress = new SharedArrayBuffer(4)
    const total = 2000
    const worker = startFixture({ path, buffer: lock.buffer, progress, mode: 'stream', transactions: total })
    cleanups.push(() => worker.terminate().then(() => undefined))
    const [started] = await once(worker, 'message')
    expect(started).toBe('started')
    for (let i = 0; i < 10; i++) {
      await store.transaction(async (tx) => {
        await builderOf(tx)
          .insertInto('workspaces')
          .values({ id: `main-${i}`, created_at: '2026-03-01' })
          .execute()
      })
    }
    // The ten request-side writes waited for one background transaction each, not for the whole stream.
    expect(Atomics.load(new Int32Array(progress), 0)).toBeLessThan(total)
    const [finished] = await once(worker, 'message')
    expect(finished).toBe('done')
    const ids = await builderOf(store).selectFrom('workspaces').select('id').execute()
    expect(ids.filter((row) => row.id.startsWith('main-'))).toHaveLength(10)
    expect(ids.filter((row) => row.id.startsWith('bg-'))).toHaveLength(total)
  })

  it('keeps reads and the writers of one thread going while another thread holds it', async () => {
    const { store, lock } = open()
    const worker = startFixture({ buffer: lock.buffer, mode: 'hold' })
    const tag = threadWriteLockTag(worker.threadId)
    expect((await once(worker, 'message'))[0]).toBe('holding')
    const written: string[] = []
    const write = (id: string) =>
      store.transaction(async (tx) => {
        await builderOf(tx).insertInto('workspaces').values({ id, created_at: '2026-03-01' }).execute()
        written.push(id)
      })
    const writes = [write('a'), write('b'), store.workspaces.getOrCreate('c').then(() => written.push('c'))]
    // Waiting writes hold no connection: reads of this thread go on meanwhile.
    expect(await builderOf(store).selectFrom('workspaces').select('id').execute()).toEqual([])
    expect(written).toEqual([])
    await worker.terminate()
    releaseThreadWriteLockOf(lock.buffer, tag)
    await Promise.all(writes)
    expect(written).toEqual(['a', 'b', 'c'])
  })

  it('is released for a thread that died holding it', async () => {
    const { store, lock } = open()
    const worker = startFixture({ buffer: lock.buffer, mode: 'hold' })
    const tag = threadWriteLockTag(worker.threadId)
    const [held] = await once(worker, 'message')
    expect(held).toBe('holding')
    let written = false
    const writing = store.transaction(async () => {
      written = true
    })
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve))
    expect(written).toBe(false)
    await worker.terminate()
    expect(releaseThreadWriteLockOf(lock.buffer, tag)).toBe(true)
    await writing
    expect(written).toBe(true)
    expect(releaseThreadWriteLockOf(lock.buffer, tag)).toBe(false)
  })

  it('orders the search log write of a query like every other write', async () => {
    const { store, lock } = open()
    const worker = startFixture({ buffer: lock.buffer, mode: 'hold' })
    const tag = threadWriteLockTag(worker.threadId)
    expect((await once(worker, 'message'))[0]).toBe('holding')
    let logged = false
    const logging = store.searchLog
      .record('ws', {
        surface: 'augment',
        query: 'redis',
        candidates: 3,
        hits: 1,
        topScore: 0.5,
        latencyMs: 2,
      })
      .then(() => {
        logged = true
      })
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve))
    // Waiting asynchronously for the other thread's turn, not inside SQLite on this thread.
    expect(logged).toBe(false)
    await worker.terminate()
    releaseThreadWriteLockOf(lock.buffer, tag)
    await logging
    expect((await store.searchLog.list('ws')).map((entry) => entry.query)).toEqual(['redis'])
  })

  it('refuses a buffer that is not a lock', () => {
    expect(() =>
      createThreadWriteLock({ buffer: new ArrayBuffer(8) as unknown as SharedArrayBuffer }),
    ).toThrow(/SharedArrayBuffer/)
  })
})
