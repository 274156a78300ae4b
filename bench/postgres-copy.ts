import Database from 'better-sqlite3'

/** Runs one SQL statement with parameters on a PostgreSQL database (a PGlite or a pg client). */
export type RawQuery = (
  text: string,
  params: readonly unknown[],
) => Promise<{ rows: Record<string, unknown>[] }>

/** The tables augment.bench.ts seeds, parents first. */
const TABLES = [
  'workspaces',
  'peers',
  'sessions',
  'session_peers',
  'messages',
  'message_embeddings',
  'chunks',
  'chunk_embeddings',
  'knowledge_graph',
  'kg_evidence',
  'edge_vectors',
  'entity_types',
  'entity_aliases',
  'episodes',
  'episode_embeddings',
  'procedures',
  'notes',
  'note_embeddings',
  'vector_indexes',
]
const VECTOR_TABLES: readonly [table: string, idColumn: string][] = [
  ['message_embeddings', 'message_id'],
  ['chunk_embeddings', 'chunk_id'],
  ['edge_vectors', 'edge_id'],
  ['episode_embeddings', 'episode_id'],
  ['note_embeddings', 'note_id'],
]
/** Parameters per INSERT (PostgreSQL allows 65535). */
const PARAMETERS_PER_STATEMENT = 30_000

/**
 * Copies the bench's seeded rows from a SQLite file into a migrated, empty HyMem schema on PostgreSQL with
 * multi-row INSERTs (columns both sides have; generated `fts` columns compute themselves), then builds the HNSW
 * index of each vector table under the name the store gives it, and runs ANALYZE. A bench seeder:
 * `migrateMemory` (the product path) copies a few thousand rows a minute into PGlite, too slow for 100k.
 */
export async function copyBenchRows(sqlitePath: string, raw: RawQuery, dimensions: number): Promise<void> {
  const sqlite = new Database(sqlitePath, { readonly: true })
  try {
    await raw('BEGIN', [])
    for (const table of TABLES) {
      const pgColumns = new Set(
        (
          await raw(
            `SELECT column_name FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'`,
            [table],
          )
        ).rows.map((row) => String(row.column_name)),
      )
      const columns = (sqlite.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[])
        .map((c) => c.name)
        .filter((name) => pgColumns.has(name))
      const perRow = columns.length
      const batch = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / perRow))
      let rows: unknown[][] = []
      const flush = async () => {
        if (rows.length === 0) return
        const values = rows.map((_, r) => `(${columns.map((_, c) => `$${r * perRow + c + 1}`).join(', ')})`)
        await raw(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values.join(', ')}`, rows.flat())
        rows = []
      }
      for (const row of sqlite.prepare(`SELECT ${columns.join(', ')} FROM ${table}`).iterate() as Iterable<
        Record<string, unknown>
      >) {
        rows.push(columns.map((column) => toPostgres(row[column])))
        if (rows.length >= batch) await flush()
      }
      await flush()
    }
    await raw('COMMIT', [])
  } catch (error) {
    await raw('ROLLBACK', []).catch(() => undefined)
    throw error
  } finally {
    sqlite.close()
  }
  for (const [table] of VECTOR_TABLES) {
    await raw(
      `CREATE INDEX IF NOT EXISTS ${table}_hnsw ON ${table}
       USING hnsw ((vector::vector(${dimensions})) vector_cosine_ops)`,
      [],
    )
  }
  await raw('ANALYZE', [])
}

/** A SQLite vector blob (float32 LE) becomes pgvector's text form; everything else passes as it is. */
function toPostgres(value: unknown): unknown {
  if (!Buffer.isBuffer(value)) return value
  const floats = new Float32Array(Uint8Array.from(value).buffer)
  return `[${Array.prototype.join.call(floats, ',')}]`
}
