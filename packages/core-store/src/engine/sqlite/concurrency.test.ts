import { describe, expect, it } from 'vitest'
import { spawnStoreWorker, summaryOf, waitForExit } from '../../../test/spawn-worker'
import { useTempStores } from '../../../test/store-harness'

describe('concurrent connections under WAL', () => {
  const stores = useTempStores()

  it('ingests batches while other processes read and write, with no SQLITE_BUSY surfacing', async () => {
    const path = stores.file('shared.sqlite')
    const store = stores.open({}, 'shared.sqlite')
    await store.workspaces.getOrCreate('w')
    const batch = 50
    const reader = waitForExit(spawnStoreWorker(['read', path, '3000', String(batch)]))
    const dreamer = waitForExit(spawnStoreWorker(['dream', path, '60']))
    let ingesting = true
    const ingester = waitForExit(spawnStoreWorker(['ingest', path, '30', String(batch)])).finally(() => {
      ingesting = false
    })
    const fork = stores.track(store.fork())
    let inProcessBatches = 0
    while (ingesting || inProcessBatches === 0) {
      await store.messages.insertBatch(
        'w',
        'local',
        Array.from({ length: batch }, (_, i) => ({ peerId: 'u', content: `local ${i}` })),
      )
      inProcessBatches++
      expect((await fork.messages.count('w')) % batch).toBe(0)
      // better-sqlite3 is synchronous: yield to the event loop so the children's exit events arrive.
      await new Promise((resolve) => setTimeout(resolve, 5))
    }

    const results = await Promise.all([reader, dreamer, ingester])
    for (const result of results) {
      expect(result.stderr).toBe('')
      expect(summaryOf(result).errors).toEqual([])
      expect(result.code).toBe(0)
    }
    const read = summaryOf(results[0])
    expect(read.reads).toBeGreaterThan(0)
    expect(read.lastCount).toBeGreaterThan(0)
    expect(await store.messages.count('w')).toBe((30 + inProcessBatches) * batch)
    expect(await store.dreamRuns.recent('w', 1000)).toHaveLength(60)
  }, 60_000)
})
