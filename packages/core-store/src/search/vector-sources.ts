import type { VectorIndexName } from './types'

/** Where one vector index keeps its vectors, and how its ids map to vec0 integer rowids. */
export interface VectorSource {
  readonly name: VectorIndexName
  /** The vec0 table, created on first write once the dimension is known. */
  readonly vecTable: string
  readonly idKind: 'integer' | 'text'
  /** Upserts one vector: (id, workspace_id, model, text_hash, vector). */
  readonly upsertSql: string
  /** The vec0 rowid of an id (the content row's integer rowid). */
  readonly rowidSql: string
  readonly removeSql: string
  /** `(id, text_hash)` for ids bound as a JSON array. */
  readonly hashesSql: string
  /** Every stored vector as `(rowid, workspace_id, vector)`, to fill a new vec0 table. */
  readonly backfillSql: string
  /** Joins a KNN result `knn(rowid, distance)` back to the stored vectors; `id` is the public id. */
  readonly knnJoin: string
  /** The vec0 rowids of a workspace's stored vectors, binding the workspace. */
  readonly workspaceRowidsSql: string
  /** The most recent `limit` vectors of a workspace: `(id, vector)`, binding workspace and limit. */
  readonly scanSql: string
  /** Deletes every stored vector of the index. */
  readonly clearSql: string
  /** `(id, vector)` of ids bound as a JSON array, binding the ids, workspace and model. */
  readonly vectorsByIdSql: string
  /** `(id, distance)` by sqlite-vec's cosine distance, binding the query vector, ids (JSON), workspace, model. */
  readonly distancesByIdSql: string
}

/** `+workspace_id` keeps SQLite on the primary key instead of scanning the workspace's index. */
function byIdFilter(idColumn: string): string {
  return `${idColumn} IN (SELECT value FROM json_each(?)) AND +workspace_id = ? AND model = ?`
}

function integerSource(
  name: 'chunks' | 'edges' | 'messages' | 'passages',
  table: string,
  idColumn: string,
): VectorSource {
  return {
    name,
    vecTable: `vec_${name}`,
    idKind: 'integer',
    upsertSql: `INSERT INTO ${table} (${idColumn}, workspace_id, model, text_hash, vector) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (${idColumn}) DO UPDATE SET workspace_id = excluded.workspace_id, model = excluded.model,
      text_hash = excluded.text_hash, vector = excluded.vector`,
    rowidSql: `SELECT ? AS rowid`,
    removeSql: `DELETE FROM ${table} WHERE ${idColumn} = ? AND +workspace_id = ?`,
    hashesSql: `SELECT ${idColumn} AS id, text_hash FROM ${table} WHERE ${idColumn} IN (SELECT value FROM json_each(?)) AND +workspace_id = ?`,
    backfillSql: `SELECT ${idColumn} AS rowid, workspace_id, vector FROM ${table}`,
    knnJoin: `JOIN ${table} AS e ON e.${idColumn} = knn.rowid`,
    workspaceRowidsSql: `SELECT ${idColumn} FROM ${table} WHERE workspace_id = ?`,
    scanSql: `SELECT ${idColumn} AS id, vector FROM ${table} WHERE workspace_id = ? ORDER BY ${idColumn} DESC LIMIT ?`,
    clearSql: `DELETE FROM ${table}`,
    vectorsByIdSql: `SELECT ${idColumn} AS id, vector FROM ${table} WHERE ${byIdFilter(idColumn)}`,
    distancesByIdSql: `SELECT ${idColumn} AS id, vec_distance_cosine(vector, ?) AS distance FROM ${table} WHERE ${byIdFilter(idColumn)}`,
  }
}

function textSource(
  name: 'episodes' | 'notes',
  content: string,
  table: string,
  idColumn: string,
): VectorSource {
  return {
    name,
    vecTable: `vec_${name}`,
    idKind: 'text',
    upsertSql: `INSERT INTO ${table} (${idColumn}, workspace_id, model, text_hash, vector) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (${idColumn}) DO UPDATE SET workspace_id = excluded.workspace_id, model = excluded.model,
      text_hash = excluded.text_hash, vector = excluded.vector`,
    rowidSql: `SELECT rowid FROM ${content} WHERE id = ?`,
    removeSql: `DELETE FROM ${table} WHERE ${idColumn} = ? AND +workspace_id = ?`,
    hashesSql: `SELECT ${idColumn} AS id, text_hash FROM ${table} WHERE ${idColumn} IN (SELECT value FROM json_each(?)) AND +workspace_id = ?`,
    backfillSql: `SELECT c.rowid AS rowid, e.workspace_id, e.vector FROM ${table} AS e JOIN ${content} AS c ON c.id = e.${idColumn}`,
    knnJoin: `JOIN ${content} AS c ON c.rowid = knn.rowid JOIN ${table} AS e ON e.${idColumn} = c.id`,
    workspaceRowidsSql: `SELECT c.rowid FROM ${table} AS e JOIN ${content} AS c ON c.id = e.${idColumn} WHERE e.workspace_id = ?`,
    scanSql: `SELECT c.id AS id, e.vector FROM ${table} AS e JOIN ${content} AS c ON c.id = e.${idColumn}
      WHERE e.workspace_id = ? ORDER BY c.rowid DESC LIMIT ?`,
    clearSql: `DELETE FROM ${table}`,
    vectorsByIdSql: `SELECT ${idColumn} AS id, vector FROM ${table} WHERE ${byIdFilter(idColumn)}`,
    distancesByIdSql: `SELECT ${idColumn} AS id, vec_distance_cosine(vector, ?) AS distance FROM ${table} WHERE ${byIdFilter(idColumn)}`,
  }
}

export const VECTOR_SOURCES: Record<VectorIndexName, VectorSource> = {
  chunks: integerSource('chunks', 'chunk_embeddings', 'chunk_id'),
  edges: integerSource('edges', 'edge_vectors', 'edge_id'),
  episodes: textSource('episodes', 'episodes', 'episode_embeddings', 'episode_id'),
  notes: textSource('notes', 'notes', 'note_embeddings', 'note_id'),
  messages: integerSource('messages', 'message_embeddings', 'message_id'),
  passages: integerSource('passages', 'passage_embeddings', 'passage_id'),
}

/** The id a KNN row reports: the integer rowid, or the content row's text id. */
export function knnIdColumn(source: VectorSource): string {
  return source.idKind === 'integer' ? 'knn.rowid' : 'c.id'
}
