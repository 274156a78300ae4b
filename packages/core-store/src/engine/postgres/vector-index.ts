import { type Kysely, type RawBuilder, sql } from 'kysely'
import { StoreError } from '../../kernel/errors'
import type { HyMemDatabase } from '../../kernel/tables'
import type { RepositoryScope } from '../../repositories/scope'
import type { VectorHit, VectorIndex, VectorIndexName, VectorPin, VectorRow } from '../../search/types'
import { cosineSimilarity } from '../../search/vector-math'
import { VECTOR_SOURCES, type VectorSource } from '../../search/vector-sources'
import {
  checkCachedTextVectors,
  checkNearest,
  checkRows,
  checkVector,
  requireWorkspace,
} from '../../search/vector-validate'
import type { StoreContext } from '../../store/types'

/** pgvector's HNSW indexes `vector` up to 2,000 dimensions; a wider index is searched exactly, by scan. */
const HNSW_MAX_DIMENSIONS = 2000

interface Pin {
  readonly model: string
  readonly dimensions: number
}

/** Where one index keeps its vectors on PostgreSQL (same tables and id columns as SQLite). */
interface PgVectorTable {
  readonly table: string
  readonly idColumn: string
  /** Postgres array type of the ids, for `= ANY(...)`. */
  readonly idArray: 'bigint[]' | 'text[]'
}

export const PG_VECTOR_TABLES: Record<VectorIndexName, PgVectorTable> = {
  chunks: { table: 'chunk_embeddings', idColumn: 'chunk_id', idArray: 'bigint[]' },
  edges: { table: 'edge_vectors', idColumn: 'edge_id', idArray: 'bigint[]' },
  episodes: { table: 'episode_embeddings', idColumn: 'episode_id', idArray: 'text[]' },
  notes: { table: 'note_embeddings', idColumn: 'note_id', idArray: 'text[]' },
  messages: { table: 'message_embeddings', idColumn: 'message_id', idArray: 'bigint[]' },
  passages: { table: 'passage_embeddings', idColumn: 'passage_id', idArray: 'bigint[]' },
}

/** pgvector's text form, `[1,0.5,…]`. A float32 printed as a double reads back as the same float32. */
export function vectorLiteral(vector: Float32Array): string {
  return `[${Array.prototype.join.call(vector, ',')}]`
}

export function parseVectorLiteral(text: string): Float32Array {
  const inner = text.slice(1, -1)
  return inner === '' ? new Float32Array(0) : Float32Array.from(inner.split(','), Number)
}

/**
 * Vector storage and KNN on pgvector. The first write pins the index's model and dimension in
 * `vector_indexes` (race-free: `ON CONFLICT DO NOTHING`, then the winner's row is read) and builds an HNSW
 * cosine index on `vector::vector(<dimension>)` (up to 2,000 dimensions); KNN orders by that same expression
 * so the planner can use it, filtered by workspace (with `hnsw.iterative_scan`, a filtered scan still returns
 * k rows).
 */
export function createPostgresVectorIndex(
  db: Kysely<HyMemDatabase>,
  context: StoreContext,
  scope: Pick<RepositoryScope, 'write'>,
): VectorIndex {
  const readPin = async (executor: Kysely<HyMemDatabase>, index: VectorIndexName): Promise<Pin | null> =>
    (await executor
      .selectFrom('vector_indexes')
      .select(['model', 'dimensions'])
      .where('name', '=', index)
      .executeTakeFirst()) ?? null

  return {
    mode: 'pgvector',
    async upsert(index, rows, model) {
      const source = sourceOf(index)
      if (typeof model !== 'string' || model === '')
        throw new StoreError('INVALID_INPUT', 'model must be a non-empty string')
      const dimensions = checkRows(source, rows)
      if (dimensions === null) return
      const target = PG_VECTOR_TABLES[index]
      await scope.write(async (tx) => {
        const pinned = await tx
          .insertInto('vector_indexes')
          .values({ name: index, model, dimensions, created_at: context.now() })
          .onConflict((oc) => oc.column('name').doNothing())
          .returning('name')
          .executeTakeFirst()
        if (pinned && dimensions <= HNSW_MAX_DIMENSIONS) await createHnswIndex(tx, target, dimensions)
        else refuseMismatch(index, (await readPin(tx, index)) as Pin, model, dimensions)
        const latest = new Map<number | string, VectorRow>()
        for (const row of rows) latest.set(row.id, row)
        const batch = [...latest.values()]
        try {
          await sql`
            INSERT INTO ${sql.table(target.table)} (${sql.ref(target.idColumn)}, workspace_id, model, text_hash, vector)
            SELECT id, workspace_id, ${model}, text_hash, vector::vector
            FROM unnest(${batch.map((row) => row.id)}::${sql.raw(target.idArray)}, ${batch.map((row) => row.workspaceId)}::text[],
                        ${batch.map((row) => row.textHash)}::text[], ${batch.map((row) => vectorLiteral(row.vector))}::text[])
              AS input(id, workspace_id, text_hash, vector)
            ON CONFLICT (${sql.ref(target.idColumn)}) DO UPDATE SET workspace_id = excluded.workspace_id,
              model = excluded.model, text_hash = excluded.text_hash, vector = excluded.vector`.execute(tx)
        } catch (error) {
          if ((error as { code?: string }).code === '23503') {
            throw new StoreError(
              'NOT_FOUND',
              `no ${source.name} row for one of the vectors' ids to attach it to`,
              {
                cause: error,
              },
            )
          }
          throw error
        }
      })
    },
    async remove(index, workspaceId, ids) {
      sourceOf(index)
      requireWorkspace(workspaceId)
      if (ids.length === 0) return
      const target = PG_VECTOR_TABLES[index]
      await scope.write(async (tx) => {
        await sql`DELETE FROM ${sql.table(target.table)}
          WHERE workspace_id = ${workspaceId}
            AND ${sql.ref(target.idColumn)} = ANY(${[...ids]}::${sql.raw(target.idArray)})`.execute(tx)
      })
    },
    async nearest(index, query, options) {
      sourceOf(index)
      checkNearest(query, options)
      const pin = await readPin(db, index)
      if (pin === null) return []
      refuseMismatch(index, pin, options.model, query.length)
      const target = PG_VECTOR_TABLES[index]
      const distance = cosineDistance(pin.dimensions, vectorLiteral(query))
      const result = await sql<{ id: number | string; distance: number }>`
        SELECT ${sql.ref(target.idColumn)} AS id, ${distance} AS distance
        FROM ${sql.table(target.table)}
        WHERE workspace_id = ${options.workspaceId}
        ORDER BY distance
        LIMIT ${options.k}`.execute(db)
      return result.rows.map(
        (row): VectorHit => ({ id: row.id, distance: row.distance, similarity: 1 - row.distance }),
      )
    },
    async similarities(index, ids, vector, options) {
      sourceOf(index)
      checkVector(vector)
      if (typeof options.workspaceId !== 'string' || options.workspaceId === '')
        throw new StoreError('INVALID_INPUT', 'similarities needs a workspaceId')
      const out = new Map<number | string, number>()
      if (ids.length === 0) return out
      const pin = await readPin(db, index)
      if (pin === null) return out
      refuseMismatch(index, pin, options.model, vector.length)
      const target = PG_VECTOR_TABLES[index]
      const result = await sql<{ id: number | string; vector: string }>`
        SELECT ${sql.ref(target.idColumn)} AS id, vector::text AS vector FROM ${sql.table(target.table)}
        WHERE ${sql.ref(target.idColumn)} = ANY(${[...ids]}::${sql.raw(target.idArray)})
          AND workspace_id = ${options.workspaceId} AND model = ${options.model}`.execute(db)
      for (const row of result.rows) out.set(row.id, cosineSimilarity(vector, parseVectorLiteral(row.vector)))
      return out
    },
    async pinned(index) {
      sourceOf(index)
      return readPin(db, index)
    },
    async textHashes(index, workspaceId, ids) {
      sourceOf(index)
      requireWorkspace(workspaceId)
      const out = new Map<number | string, string>()
      if (ids.length === 0) return out
      const target = PG_VECTOR_TABLES[index]
      const result = await sql<{ id: number | string; text_hash: string }>`
        SELECT ${sql.ref(target.idColumn)} AS id, text_hash FROM ${sql.table(target.table)}
        WHERE workspace_id = ${workspaceId}
          AND ${sql.ref(target.idColumn)} = ANY(${[...ids]}::${sql.raw(target.idArray)})`.execute(db)
      for (const row of result.rows) out.set(row.id, row.text_hash)
      return out
    },
    async cachedTextVectors(model, texts) {
      const out = new Map<string, Float32Array>()
      if (texts.length === 0) return out
      const result = await sql<{ text_key: string; vector: string }>`
        SELECT text_key, vector::text AS vector FROM edge_embeddings
        WHERE model = ${model} AND text_key = ANY(${[...texts]}::text[])`.execute(db)
      for (const row of result.rows) out.set(row.text_key, parseVectorLiteral(row.vector))
      return out
    },
    async cacheTextVectors(model, entries) {
      checkCachedTextVectors(model, entries)
      if (entries.length === 0) return
      const latest = new Map<string, Float32Array>()
      for (const entry of entries) latest.set(entry.text, entry.vector)
      await scope.write(async (tx) => {
        await sql`
          INSERT INTO edge_embeddings (text_key, model, vector)
          SELECT text_key, ${model}, vector::vector
          FROM unnest(${[...latest.keys()]}::text[], ${[...latest.values()].map(vectorLiteral)}::text[])
            AS input(text_key, vector)
          ON CONFLICT (model, text_key) DO UPDATE SET vector = excluded.vector`.execute(tx)
      })
    },
    async pins() {
      const rows = await db
        .selectFrom('vector_indexes')
        .select(['name', 'model', 'dimensions'])
        .orderBy('name')
        .execute()
      return rows.map(
        (row): VectorPin => ({
          index: row.name as VectorIndexName,
          model: row.model,
          dimensions: row.dimensions,
        }),
      )
    },
    async reset() {
      await scope.write(async (tx) => {
        // TRUNCATE, not DELETE: an index built later in this transaction would still read deleted rows, and
        // casting one of the old dimension to the new `vector(d)` fails.
        const tables = Object.values(PG_VECTOR_TABLES).map((target) => sql.table(target.table))
        await sql`TRUNCATE ${sql.join(tables)}`.execute(tx)
        for (const target of Object.values(PG_VECTOR_TABLES)) {
          // Each HNSW index casts to the old dimension; the next first write builds one for the new dimension.
          await sql`DROP INDEX IF EXISTS ${sql.ref(`${target.table}_hnsw`)}`.execute(tx)
        }
        await tx.deleteFrom('vector_indexes').execute()
      })
    },
  }
}

/** The HNSW index of one vector table, on a cast to the pinned dimension (the column itself has none). */
async function createHnswIndex(tx: Kysely<HyMemDatabase>, target: PgVectorTable, dimensions: number) {
  await sql`CREATE INDEX IF NOT EXISTS ${sql.ref(`${target.table}_hnsw`)} ON ${sql.table(target.table)}
    USING hnsw ((vector::vector(${sql.raw(String(dimensions))})) vector_cosine_ops)`.execute(tx)
}

/** `vector::vector(d) <=> '<query>'::vector(d)`: the indexed expression, so the HNSW index answers. */
function cosineDistance(dimensions: number, query: string): RawBuilder<number> {
  const type = sql.raw(`vector(${dimensions})`)
  return sql<number>`(vector::${type} <=> ${query}::${type})`
}

function sourceOf(index: VectorIndexName): VectorSource {
  const source = VECTOR_SOURCES[index]
  if (!source) throw new StoreError('INVALID_INPUT', `no vector index named ${String(index)}`)
  return source
}

function refuseMismatch(index: VectorIndexName, pin: Pin, model: string, dimensions: number): void {
  if (pin.model === model && pin.dimensions === dimensions) return
  throw new StoreError(
    'VECTOR_MISMATCH',
    `the ${index} vector index holds ${pin.model} vectors of dimension ${pin.dimensions}, not ${model} of dimension ${dimensions}; re-index with \`hymem reindex\``,
  )
}
