import type { Kysely } from 'kysely'
import type { StoreContext } from '../../kernel/context'
import { StoreError } from '../../kernel/errors'
import type { HyMemDatabase } from '../../kernel/tables'
import type { RepositoryOptions } from '../../repositories/scope'
import { _createRepositoryScope } from '../../repositories/scope'
import type { VectorHit, VectorIndex, VectorIndexName, VectorRow } from '../../search/types'
import { blobVector, cosineDistanceToBlob, norm, vectorBlob } from '../../search/vector-math'
import {
  checkCachedTextVectors,
  checkNearest,
  checkRows,
  checkVector,
  requireWorkspace,
} from '../../search/vector-validate'
import type { StatementCache } from '../types'

export { MAX_NEAREST_K } from '../../search/vector-validate'

import { knnIdColumn, VECTOR_SOURCES, type VectorSource } from '../../search/vector-sources'

const IN_LIST_CHUNK = 500

interface Pin {
  readonly model: string
  readonly dimensions: number
}

/**
 * Vector storage and KNN. The `*_embeddings` tables (and `edge_vectors`) hold the vectors; under sqlite-vec a
 * `vec0` table per index (cosine distance, partitioned by workspace) answers KNN, created on the first write
 * or filled from the stored vectors on first use. Without the extension, a cosine scan over the workspace's
 * `embeddingMaxScan` most recent vectors answers instead.
 */
export function createVectorIndex(
  db: Kysely<HyMemDatabase>,
  context: StoreContext,
  options: RepositoryOptions,
  statements: StatementCache,
): VectorIndex {
  const scope = _createRepositoryScope(db, context, options)
  const mode = context.vectors.mode

  const readPin = (index: VectorIndexName): Pin | null =>
    (statements.prepare('SELECT model, dimensions FROM vector_indexes WHERE name = ?').get(index) as
      | Pin
      | undefined) ?? null

  const vecTableExists = (source: VectorSource): boolean =>
    statements
      .prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get(source.vecTable) !== undefined

  /** Creates the vec0 table when missing and fills it from the stored vectors. Call inside a write. */
  const ensureVecTable = (source: VectorSource, dimensions: number): void => {
    if (mode !== 'sqlite-vec' || vecTableExists(source)) return
    statements
      .prepare(
        `CREATE VIRTUAL TABLE ${source.vecTable} USING vec0(workspace_id text partition key, embedding float[${dimensions}] distance_metric=cosine)`,
      )
      .run()
    statements
      .prepare(`INSERT INTO ${source.vecTable} (rowid, workspace_id, embedding) ${source.backfillSql}`)
      .run()
  }

  return {
    mode,
    async upsert(index, rows, model) {
      const source = sourceOf(index)
      if (typeof model !== 'string' || model === '')
        throw new StoreError('INVALID_INPUT', 'model must be a non-empty string')
      const dimensions = checkRows(source, rows)
      if (dimensions === null) return
      await scope.write(() => {
        const pin = readPin(index)
        if (pin === null) {
          statements
            .prepare('INSERT INTO vector_indexes (name, model, dimensions, created_at) VALUES (?, ?, ?, ?)')
            .run(index, model, dimensions, context.now())
        } else {
          refuseMismatch(index, pin, model, dimensions)
        }
        ensureVecTable(source, dimensions)
        writeRows(statements, source, rows, model, mode === 'sqlite-vec')
      })
    },
    async remove(index, workspaceId, ids) {
      const source = sourceOf(index)
      requireWorkspace(workspaceId)
      if (ids.length === 0) return
      await scope.write(() => {
        const withVec = mode === 'sqlite-vec' && vecTableExists(source)
        for (const id of ids) {
          const rowid = withVec ? rowidOf(statements, source, id) : undefined
          // The vec0 row goes only with a row of this workspace: an id of another one is left alone.
          const removed = statements.prepare(source.removeSql).run(id, workspaceId).changes > 0
          if (removed && rowid !== undefined)
            statements.prepare(`DELETE FROM ${source.vecTable} WHERE rowid = ?`).run(rowid)
        }
      })
    },
    async nearest(index, query, options) {
      const source = sourceOf(index)
      checkNearest(query, options)
      const pin = await scope.read(() => readPin(index))
      if (pin === null) return []
      refuseMismatch(index, pin, options.model, query.length)
      if (mode === 'sqlite-vec') {
        if (!(await scope.read(() => vecTableExists(source)))) {
          await scope.write(() => ensureVecTable(source, pin.dimensions))
        }
        return scope.read(() => knn(statements, source, query, options.workspaceId, options.k))
      }
      return scope.read(() =>
        scan(statements, source, query, options.workspaceId, options.k, context.embeddingMaxScan),
      )
    },
    async similarities(index, ids, vector, options) {
      const source = sourceOf(index)
      checkVector(vector)
      if (typeof options.workspaceId !== 'string' || options.workspaceId === '')
        throw new StoreError('INVALID_INPUT', 'similarities needs a workspaceId')
      const out = new Map<number | string, number>()
      if (ids.length === 0) return out
      const pin = await scope.read(() => readPin(index))
      if (pin === null) return out
      refuseMismatch(index, pin, options.model, vector.length)
      await scope.read(() => {
        for (let start = 0; start < ids.length; start += IN_LIST_CHUNK) {
          const list = JSON.stringify(ids.slice(start, start + IN_LIST_CHUNK))
          const distances =
            mode === 'sqlite-vec'
              ? sqliteVecDistances(statements, source, vector, list, options.workspaceId, options.model)
              : scannedDistances(statements, source, vector, list, options.workspaceId, options.model)
          for (const [id, distance] of distances) out.set(id, 1 - distance)
        }
      })
      return out
    },
    async pinned(index) {
      sourceOf(index)
      return scope.read(() => readPin(index))
    },
    async textHashes(index, workspaceId, ids) {
      const source = sourceOf(index)
      requireWorkspace(workspaceId)
      const out = new Map<number | string, string>()
      await scope.read(() => {
        for (let start = 0; start < ids.length; start += IN_LIST_CHUNK) {
          const list = JSON.stringify(ids.slice(start, start + IN_LIST_CHUNK))
          for (const row of statements.prepare(source.hashesSql).all(list, workspaceId) as {
            id: number | string
            text_hash: string
          }[]) {
            out.set(row.id, row.text_hash)
          }
        }
      })
      return out
    },
    async cachedTextVectors(model, texts) {
      const out = new Map<string, Float32Array>()
      await scope.read(() => {
        const select = statements.prepare(
          'SELECT text_key, vector FROM edge_embeddings WHERE model = ? AND text_key IN (SELECT value FROM json_each(?))',
        )
        for (let start = 0; start < texts.length; start += IN_LIST_CHUNK) {
          const list = JSON.stringify(texts.slice(start, start + IN_LIST_CHUNK))
          for (const row of select.all(model, list) as { text_key: string; vector: Buffer }[]) {
            out.set(row.text_key, blobVector(row.vector))
          }
        }
      })
      return out
    },
    async cacheTextVectors(model, entries) {
      checkCachedTextVectors(model, entries)
      if (entries.length === 0) return
      await scope.write(() => {
        const insert = statements.prepare(
          'INSERT INTO edge_embeddings (text_key, model, vector) VALUES (?, ?, ?) ON CONFLICT (model, text_key) DO UPDATE SET vector = excluded.vector',
        )
        for (const entry of entries) insert.run(entry.text, model, vectorBlob(entry.vector))
      })
    },
    async pins() {
      const rows = await scope.read(
        () =>
          statements.prepare('SELECT name, model, dimensions FROM vector_indexes ORDER BY name').all() as {
            name: VectorIndexName
            model: string
            dimensions: number
          }[],
      )
      return rows.map((row) => ({ index: row.name, model: row.model, dimensions: row.dimensions }))
    },
    async reset() {
      await scope.write(() => {
        for (const source of Object.values(VECTOR_SOURCES)) statements.prepare(source.clearSql).run()
        statements.prepare('DELETE FROM vector_indexes').run()
        for (const source of Object.values(VECTOR_SOURCES)) dropVecTable(statements, source)
      })
    },
  }
}

function dropVecTable(statements: StatementCache, source: VectorSource): void {
  try {
    statements.prepare(`DROP TABLE IF EXISTS ${source.vecTable}`).run()
  } catch (error) {
    throw new StoreError(
      'VECTOR_UNAVAILABLE',
      `cannot drop the ${source.vecTable} index without the sqlite-vec extension; run reindex where sqlite-vec loads`,
      { cause: error },
    )
  }
}

/**
 * Drops a workspace's rows from the vec0 tables (call inside a write, before its vectors are deleted). The
 * stored vectors themselves go with their content rows.
 */
export function _removeWorkspaceVectors(
  statements: StatementCache,
  context: StoreContext,
  workspaceId: string,
): void {
  if (context.vectors.mode !== 'sqlite-vec') return
  for (const source of Object.values(VECTOR_SOURCES)) {
    const exists = statements
      .prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get(source.vecTable)
    if (exists === undefined) continue
    statements
      .prepare(`DELETE FROM ${source.vecTable} WHERE rowid IN (${source.workspaceRowidsSql})`)
      .run(workspaceId)
  }
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

function rowidOf(statements: StatementCache, source: VectorSource, id: number | string): bigint | undefined {
  const row = statements.prepare(source.rowidSql).get(id) as { rowid: number } | undefined
  return row === undefined ? undefined : BigInt(row.rowid)
}

function writeRows(
  statements: StatementCache,
  source: VectorSource,
  rows: readonly VectorRow[],
  model: string,
  withVec: boolean,
): void {
  const upsert = statements.prepare(source.upsertSql)
  const removeVec = withVec ? statements.prepare(`DELETE FROM ${source.vecTable} WHERE rowid = ?`) : null
  const insertVec = withVec
    ? statements.prepare(`INSERT INTO ${source.vecTable} (rowid, workspace_id, embedding) VALUES (?, ?, ?)`)
    : null
  for (const row of rows) {
    const blob = vectorBlob(row.vector)
    try {
      upsert.run(row.id, row.workspaceId, model, row.textHash, blob)
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
        throw new StoreError(
          'NOT_FOUND',
          `no ${source.name} row with id ${String(row.id)} to attach a vector to`,
          {
            cause: error,
          },
        )
      }
      throw error
    }
    if (removeVec && insertVec) {
      const rowid = rowidOf(statements, source, row.id)
      if (rowid === undefined) continue
      removeVec.run(rowid)
      insertVec.run(rowid, row.workspaceId, blob)
    }
  }
}

function knn(
  statements: StatementCache,
  source: VectorSource,
  query: Float32Array,
  workspaceId: string,
  k: number,
): VectorHit[] {
  const rows = statements
    .prepare(
      `SELECT ${knnIdColumn(source)} AS id, knn.distance AS distance
       FROM (SELECT rowid, distance FROM ${source.vecTable} WHERE embedding MATCH ? AND k = ? AND workspace_id = ?) AS knn
       ${source.knnJoin} ORDER BY knn.distance`,
    )
    .all(vectorBlob(query), k, workspaceId) as { id: number | string; distance: number }[]
  return rows.map((row) => ({ id: row.id, distance: row.distance, similarity: 1 - row.distance }))
}

function scan(
  statements: StatementCache,
  source: VectorSource,
  query: Float32Array,
  workspaceId: string,
  k: number,
  maxScan: number,
): VectorHit[] {
  const queryNorm = norm(query)
  const hits: VectorHit[] = []
  for (const row of statements.prepare(source.scanSql).iterate(workspaceId, maxScan) as Iterable<{
    id: number | string
    vector: Buffer
  }>) {
    if (row.vector.byteLength !== query.length * 4) continue
    const distance = cosineDistanceToBlob(query, queryNorm, row.vector)
    hits.push({ id: row.id, distance, similarity: 1 - distance })
  }
  hits.sort((a, b) => a.distance - b.distance)
  return hits.slice(0, k)
}

/** Cosine distances computed by sqlite-vec; a zero vector (no direction) counts as distance 1. */
function sqliteVecDistances(
  statements: StatementCache,
  source: VectorSource,
  query: Float32Array,
  idList: string,
  workspaceId: string,
  model: string,
): [number | string, number][] {
  const rows = statements
    .prepare(source.distancesByIdSql)
    .all(vectorBlob(query), idList, workspaceId, model) as { id: number | string; distance: number | null }[]
  return rows.map((row) => [row.id, row.distance ?? 1])
}

function scannedDistances(
  statements: StatementCache,
  source: VectorSource,
  query: Float32Array,
  idList: string,
  workspaceId: string,
  model: string,
): [number | string, number][] {
  const queryNorm = norm(query)
  const out: [number | string, number][] = []
  for (const row of statements
    .prepare(source.vectorsByIdSql)
    .iterate(idList, workspaceId, model) as Iterable<{
    id: number | string
    vector: Buffer
  }>) {
    if (row.vector.byteLength !== query.length * 4) continue
    out.push([row.id, cosineDistanceToBlob(query, queryNorm, row.vector)])
  }
  return out
}
