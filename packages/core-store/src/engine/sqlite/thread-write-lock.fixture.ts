// Run by thread-write-lock.test.ts in a worker thread: the background side of a shared thread write lock.
import { parentPort, workerData } from 'node:worker_threads'
import { builderOf } from '../../store/builder'
import { openStore } from './open-store'
import { createThreadWriteLock } from './thread-write-lock'

const { path, buffer, progress, mode, transactions } = workerData as {
  path: string
  buffer: SharedArrayBuffer
  progress: SharedArrayBuffer
  mode: 'stream' | 'hold'
  transactions: number
}
const lock = createThreadWriteLock({ buffer, priority: 'background' })

if (mode === 'hold') {
  // Takes the lock and never gives it back, like a thread that dies in the middle of a write.
  await lock.acquire()
  parentPort!.postMessage('holding')
} else {
  const store = openStore({ path, threadWriteLock: lock })
  const done = new Int32Array(progress)
  parentPort!.postMessage('started')
  for (let i = 0; i < transactions; i++) {
    await store.transaction(async (tx) => {
      await builderOf(tx)
        .insertInto('workspaces')
        .values({ id: `bg-${i}`, created_at: '2026-03-01' })
        .execute()
    })
    Atomics.store(done, 0, i + 1)
  }
  await store.close()
  parentPort!.postMessage('done')
}
