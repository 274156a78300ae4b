import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { useTempStores } from '../../test/store-harness'

describe('workspaces.counts covers the schema', () => {
  const stores = useTempStores()

  it('counts every table of the schema that is scoped by workspace (virtual tables and their shadows aside)', async () => {
    const store = stores.open({ loadVectorExtension: true })
    const [message] = await store.messages.insertBatch('w', 's', [{ peerId: 'u', content: 'one' }])
    await store.vectors.upsert(
      'messages',
      [{ id: message!.id, workspaceId: 'w', vector: new Float32Array([1, 0]), textHash: 'h' }],
      'm',
    )
    const raw = new Database(store.location, { readonly: true })
    try {
      const tables = raw.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all() as {
        name: string
        sql: string
      }[]
      const virtual = tables.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name)
      expect(virtual.length).toBeGreaterThan(0)
      const scoped = tables
        .filter((t) => !virtual.some((name) => t.name === name || t.name.startsWith(`${name}_`)))
        .filter((t) =>
          (raw.prepare('SELECT name FROM pragma_table_info(?)').all(t.name) as { name: string }[]).some(
            (column) => column.name === 'workspace_id',
          ),
        )
        .map((t) => t.name)
      const counted = Object.keys(await store.workspaces.counts('w'))
      expect(scoped.length).toBeGreaterThan(20)
      // Coordination state, and the passage and topic indexes dreaming rebuilds: not memory (see COUNTED in
      // workspaces.ts).
      const notMemory = [
        'graph_generations',
        'queue_totals',
        'passages',
        'passage_embeddings',
        'topic_mentions',
        'topic_progress',
        'standing_rules',
      ]
      expect(scoped.filter((name) => !counted.includes(name) && !notMemory.includes(name))).toEqual([])
      expect(counted).toContain('processed_chunks')
    } finally {
      raw.close()
    }
  })
})
