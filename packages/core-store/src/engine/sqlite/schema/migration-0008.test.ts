import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { useTempStores } from '../../../../test/store-harness'
import { openStore } from '../open-store'
import { MIGRATIONS, SCHEMA_VERSION } from './migrations'

/** A database file as HyMem left it at schema version 7, holding Chinese, Korean and English messages. */
function writeVersion7(path: string): void {
  const raw = new Database(path)
  for (const migration of MIGRATIONS.filter((m) => m.version <= 7)) raw.exec(migration.sql)
  raw.pragma('user_version = 7')
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
})
