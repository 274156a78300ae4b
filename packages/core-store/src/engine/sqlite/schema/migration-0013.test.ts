import { describe, expect, it } from 'vitest'
import { databaseAtVersion } from '../../../../test/database-at-version'
import { useTempStores } from '../../../../test/store-harness'
import { builderOf } from '../../../store/builder'
import { openStore } from '../open-store'
import { SCHEMA_VERSION } from './migrations'

/** A database file as HyMem left it at schema version 12: one session's topics read to its end. */
function writeVersion12(path: string): void {
  const raw = databaseAtVersion(path, 12)
  raw.exec(`
    INSERT INTO workspaces (id, created_at) VALUES ('w', '2026-01-01T00:00:00.000Z');
    INSERT INTO sessions (workspace_id, id, started_at, created_at)
      VALUES ('w', 's1', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
    INSERT INTO topic_progress (workspace_id, session_id, last_message_id, messages_read)
      VALUES ('w', 's1', 42, 42);
  `)
  raw.close()
}

describe('migration 13: the widened standing-rule cue', () => {
  const stores = useTempStores()

  it('clears how far each session was read, so the next dream reads its topics and rules again', async () => {
    const path = stores.file('v12.sqlite')
    writeVersion12(path)
    const store = stores.track(openStore({ path }))
    expect(store.info().schemaVersion).toBe(SCHEMA_VERSION)
    expect(await builderOf(store).selectFrom('topic_progress').selectAll().execute()).toEqual([])
  })
})
