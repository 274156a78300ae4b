import { createFakeEmbeddings } from '@hymem/extraction'
import { afterEach, describe, expect, it } from 'vitest'
import { createHyMem } from '../src/create-hymem'
import type { HyMem } from '../src/types'
import { TRIP, WORK } from './forget-scenario'
import { collect } from './harness'
import { type RecordingPglite, recordingPglite, statementsIn } from './statement-log'

/**
 * Ready for a workspace-sharded cluster (Citus, distributed by `workspace_id`): every statement that touches a
 * table of a workspace names the workspace, so it routes to one shard and never reads two workspaces.
 */

/** The tables that carry `workspace_id` (would be distributed by it), read from the migrated schema. */
async function workspaceTables(db: RecordingPglite): Promise<ReadonlySet<string>> {
  const { rows } = await db.pglite.query<{ table_name: string }>(
    `select distinct table_name from information_schema.columns
     where column_name = 'workspace_id' and table_schema not in ('pg_catalog', 'information_schema')`,
  )
  return new Set(rows.map((row) => row.table_name))
}

/** The workspace tables a statement reads or writes (FROM, JOIN, UPDATE, INSERT INTO, DELETE FROM). */
function workspaceTablesIn(statement: string, tables: ReadonlySet<string>): string[] {
  const named = [...statement.matchAll(/\b(?:from|join|update|into)\s+(?:"?\w+"?\.)?"?(\w+)"?/gi)]
  return [...new Set(named.map((m) => m[1]!.toLowerCase()).filter((t) => tables.has(t)))]
}

/** A predicate on the workspace: `workspace_id = $n`, `workspace_id IN (...)`, `"t"."workspace_id" = ANY(...)`. */
const WORKSPACE_PREDICATE = /\bworkspace_id"?\s*(=|in\b)/i
/** An INSERT of given rows (no SELECT): its rows carry their `workspace_id` column. */
const INSERT_OF_VALUES = /^\s*insert\s+into\s[^()]*\([^)]*\bworkspace_id\b[^)]*\)\s*values\b/i

/**
 * A statement on workspace tables that does not pin one workspace: it could read (or write) any of them, and
 * a workspace-sharded cluster would send it to every shard. An INSERT … SELECT needs the predicate too.
 */
function unrouted(statement: string, tables: ReadonlySet<string>): boolean {
  if (workspaceTablesIn(statement, tables).length === 0) return false
  if (INSERT_OF_VALUES.test(statement) && !/\bselect\b/i.test(statement)) return false
  return !WORKSPACE_PREDICATE.test(statement)
}

const open: { memory: HyMem; db: RecordingPglite }[] = []
afterEach(async () => {
  for (const { memory, db } of open.splice(0)) {
    await memory.close()
    await db.close()
  }
})

describe('the statement audit', () => {
  it('reads the SQL of simple and extended protocol messages', () => {
    const encoder = new TextEncoder()
    const frame = (type: string, body: Uint8Array) => {
      const out = new Uint8Array(5 + body.length)
      out[0] = type.charCodeAt(0)
      new DataView(out.buffer).setInt32(1, body.length + 4)
      out.set(body, 5)
      return out
    }
    const cstrings = (...parts: string[]) => encoder.encode(parts.map((p) => `${p}\0`).join(''))
    const parse = frame('P', new Uint8Array([...cstrings('', 'select $1'), 0, 0]))
    const sync = frame('S', new Uint8Array())
    const query = frame('Q', cstrings('BEGIN'))
    expect(statementsIn(new Uint8Array([...parse, ...sync, ...query]))).toEqual(['select $1', 'BEGIN'])
  })

  it('flags a by-id read without the workspace and passes one with it', () => {
    const tables = new Set(['messages', 'knowledge_graph', 'notes', 'processed_chunks', 'chunks'])
    expect(unrouted('select * from "messages" where "id" in ($1, $2)', tables)).toBe(true)
    expect(unrouted('update knowledge_graph set status = $1 where id = $2', tables)).toBe(true)
    expect(unrouted('select * from "messages" where "workspace_id" = $1 and "id" in ($2)', tables)).toBe(
      false,
    )
    expect(unrouted('select 1 from "llm_cache" where "key" = $1', tables)).toBe(false)
    expect(unrouted('insert into "notes" ("workspace_id", "id") values ($1, $2)', tables)).toBe(false)
    // Naming the column is not enough: the rows an INSERT … SELECT copies must come from one workspace.
    expect(
      unrouted(
        'INSERT INTO processed_chunks (workspace_id, chunk_id) SELECT workspace_id, id FROM chunks WHERE id = $1',
        tables,
      ),
    ).toBe(true)
    expect(
      unrouted('select "id" from "chunks" where "chunks"."workspace_id" = $1 order by "id"', tables),
    ).toBe(false)
  })
})

describe('a memory on PostgreSQL (PGlite), two workspaces', () => {
  it('sends no statement on a workspace table that does not pin the workspace', async () => {
    const db = await recordingPglite()
    const memory = await createHyMem({
      database: { pglite: db.pglite },
      embeddings: createFakeEmbeddings({ dimensions: 32 }),
    })
    open.push({ memory, db })
    db.recording = true
    for (const workspaceId of ['alpha', 'beta']) {
      await memory.capture([...WORK], { sessionId: 'work', workspaceId })
      await memory.capture([...TRIP], { sessionId: 'trip', workspaceId })
      expect(await memory.dream({ workspaceId })).toMatchObject({ status: 'ok', errors: [] })
      await memory.augment('which database do we use for billing?', { workspaceId })
      const note = await memory.notes.remember(
        { description: 'Deploy day', content: 'Deploys happen on Fridays.' },
        {
          workspaceId,
        },
      )
      await memory.notes.search('when do deploys happen?', { workspaceId })
      await memory.erase.note(note.note.id, { wait: true, workspaceId })
      await memory.profile({ workspaceId })
      await memory.history('billing service', { workspaceId })
      await memory.erase.session('trip', { wait: true, workspaceId })
      await memory.stats({ workspaceId })
      await collect(memory.export({ workspaceId, withVectors: true }))
    }
    db.recording = false

    const statements = [...new Set(db.statements)]
    const tables = await workspaceTables(db)
    expect([...tables]).toEqual(expect.arrayContaining(['messages', 'graph_generations', 'queue_totals']))
    // The flow is representative: it reached most workspace tables.
    const reached = new Set(statements.flatMap((statement) => workspaceTablesIn(statement, tables)))
    expect(reached.size).toBeGreaterThanOrEqual(20)
    expect(statements.filter((statement) => unrouted(statement, tables))).toEqual([])
  }, 120_000)
})
