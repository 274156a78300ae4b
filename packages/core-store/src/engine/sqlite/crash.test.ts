import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { spawnStoreWorker, waitForExit } from '../../../test/spawn-worker'
import { useTempStores } from '../../../test/store-harness'

describe('crash safety', () => {
  const stores = useTempStores()

  it('a writer killed with SIGKILL mid-ingest leaves an intact file holding only whole batches', async () => {
    const path = stores.file('crash.sqlite')
    const size = 100
    const child = spawnStoreWorker(['ingest', path, '0', String(size)])
    let committed = 0
    const exited = waitForExit(child)
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        committed = Math.max(
          committed,
          ...[...chunk.toString().matchAll(/committed (\d+)/g)].map((m) => Number(m[1])),
        )
        if (committed >= 25) resolve()
      })
      child.on('exit', () => reject(new Error('the writer exited before it was killed')))
    })
    child.kill('SIGKILL')
    const result = await exited
    expect(result.signal).toBe('SIGKILL')

    const raw = new Database(path)
    try {
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok')
      expect(() =>
        raw.prepare("INSERT INTO messages_fts(messages_fts) VALUES ('integrity-check')").run(),
      ).not.toThrow()
      const batches = raw
        .prepare(
          `SELECT json_extract(metadata, '$.batch') AS batch, count(*) AS n FROM messages GROUP BY batch ORDER BY batch`,
        )
        .all() as { batch: number; n: number }[]
      expect(batches.length).toBeGreaterThanOrEqual(committed)
      expect(batches.every((b) => b.n === size)).toBe(true)
      expect(batches.map((b) => b.batch)).toEqual(batches.map((_, i) => i + 1))
      const fts = raw
        .prepare(`SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'postgres'`)
        .get() as { n: number }
      expect(fts.n).toBe(batches.length * size)
    } finally {
      raw.close()
    }
    const reopened = stores.open({}, 'crash.sqlite')
    expect(await reopened.messages.count('w')).toBeGreaterThanOrEqual(committed * size)
  }, 60_000)
})
