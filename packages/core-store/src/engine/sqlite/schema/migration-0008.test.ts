import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { databaseAtVersion } from '../../../../test/database-at-version'
import { spawnStoreWorker, waitForExit } from '../../../../test/spawn-worker'
import { useTempStores } from '../../../../test/store-harness'
import type { StoreLogEvent } from '../../../store/types'
import { openStore } from '../open-store'
import { SCHEMA_VERSION } from './migrations'

/**
 * A database file as HyMem left it at schema version 7, holding Chinese, Korean and English messages, and
 * `filler` more English ones.
 */
function writeVersion7(path: string, filler = 0): void {
  const raw = databaseAtVersion(path, 7)
  const at = '2026-01-05T00:00:00.000Z'
  raw.exec(`
    INSERT INTO workspaces (id, created_at) VALUES ('w', '${at}');
    INSERT INTO sessions (workspace_id, id, started_at, created_at) VALUES ('w', 's', '${at}', '${at}');
    INSERT INTO peers (workspace_id, id, role, created_at) VALUES ('w', 'u', 'user', '${at}');
  `)
  const insert = raw.prepare(
    `INSERT INTO messages (public_id, workspace_id, session_id, peer_id, role, content, created_at)
     VALUES (?, 'w', 's', 'u', 'user', ?, '${at}')`,
  )
  insert.run('m1', '我们的后端服务部署在阿里云上')
  insert.run('m2', '쿠버네티스 클러스터에서 운영합니다')
  insert.run('m3', 'We deploy the backend on Fridays')
  raw.transaction(() => {
    for (let i = 0; i < filler; i++)
      insert.run(`f${i}`, `note ${i} about the staging database and its replicas`)
  })()
  raw.close()
}

describe('migration 8: full text in every script', () => {
  const stores = useTempStores()

  it('reindexes the messages already stored, which the old index could not find by their words', async () => {
    const path = stores.file('v7.sqlite')
    writeVersion7(path)
    const store = stores.track(openStore({ path }))
    expect(store.info().schemaVersion).toBe(SCHEMA_VERSION)
    const search = async (text: string) =>
      (await store.fullText.search('messages', text, { workspaceId: 'w', limit: 5 })).map((hit) => hit.id)
    expect(await search('阿里云')).toEqual([1])
    expect(await search('클러스터')).toEqual([2])
    expect(await search('deployed')).toEqual([3])
    await store.messages.insertBatch('w', 's', [{ peerId: 'u', content: '缓存用Redis' }])
    expect(await search('缓存')).toEqual([4])
  })

  it('reports its progress over the stored rows, from none to all of them, in batches', () => {
    const path = stores.file('v7-progress.sqlite')
    writeVersion7(path, 5_000)
    const events: Extract<StoreLogEvent, { kind: 'upgrade' }>[] = []
    stores.track(
      openStore({
        path,
        log: (event) => {
          if (event.kind === 'upgrade') events.push(event)
        },
      }),
    )
    expect(new Set(events.map((event) => event.migration))).toEqual(new Set(['8-full-text-every-script']))
    expect(events[0]).toMatchObject({ table: 'messages', done: 0 })
    const total = events[0]?.total ?? 0
    expect(total).toBe(5_003)
    expect(events.at(-1)?.done).toBe(total)
    const dones = events.map((event) => event.done)
    expect(dones).toEqual([...dones].sort((a, b) => a - b))
    expect(events.filter((event) => event.table === 'messages').length).toBeGreaterThanOrEqual(4)
  })

  it('a fresh file reports no upgrade: there is nothing stored to go through', () => {
    const events: StoreLogEvent[] = []
    stores.track(openStore({ path: stores.file('fresh.sqlite'), log: (event) => events.push(event) }))
    expect(events.filter((event) => event.kind === 'upgrade')).toEqual([])
  })

  it('killed half-way, the file stays at version 7 with its old index; the next open upgrades it', async () => {
    const path = stores.file('v7-killed.sqlite')
    writeVersion7(path, 5_000)
    const result = await waitForExit(spawnStoreWorker(['upgrade', path, '2000']))
    expect(result.signal).toBe('SIGKILL')
    expect(result.stdout).toMatch(/upgrade 2000\/5003/)

    const raw = new Database(path, { readonly: true })
    try {
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok')
      expect(raw.pragma('user_version', { simple: true })).toBe(7)
    } finally {
      raw.close()
    }
    const store = stores.track(openStore({ path }))
    expect(store.info().schemaVersion).toBe(SCHEMA_VERSION)
    const search = async (text: string, limit = 5) =>
      (await store.fullText.search('messages', text, { workspaceId: 'w', limit })).map((hit) => hit.id)
    expect(await search('阿里云')).toEqual([1])
    expect((await search('replicas', 10_000)).length).toBe(5_000)
  }, 60_000)
})
