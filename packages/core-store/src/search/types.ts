/** Tables with an FTS5 index. */
export type FullTextTable = 'messages' | 'chunks' | 'episodes' | 'procedures' | 'notes' | 'passages'

/** Tables with a vector index (vec0 under sqlite-vec, a capped cosine scan without it, pgvector on PostgreSQL). */
export type VectorIndexName = 'chunks' | 'edges' | 'episodes' | 'notes' | 'messages' | 'passages'

export interface FullTextHit {
  /** The row's primary key: `messages.id`, `chunks.id`, `episodes.id`, `procedures.id`, `notes.id`, `passages.id`. */
  readonly id: number | string
  /**
   * Relevance in (0, 1], higher is better: the backend's own rank (BM25 on SQLite) relative to the best hit
   * of the query, which scores 1. It orders hits of one query and keeps their proportions (so scores of one
   * query may be added up); do not compare scores across queries.
   */
  readonly score: number
}

export interface FullTextQuery {
  readonly workspaceId: string
  readonly limit: number
  /** Only rows of these sessions (messages, chunks, episodes, procedures). */
  readonly sessionIds?: readonly string[]
  /** Only messages (or passages of messages) written by this peer. */
  readonly peerId?: string
  /** `'any'` (default) finds rows containing any word of the text; `'all'` requires every word. */
  readonly match?: 'any' | 'all'
  /**
   * Leave common words ("what", "the", "is"; Russian, Greek, Arabic and Hindi ones too) out of the query. A text made only of such words
   * still searches them rather than returning nothing. @default false
   */
  readonly skipCommonWords?: boolean
  /** More lower-case words to leave out (for example peer names the caller scores itself). */
  readonly skipWords?: Iterable<string>
  /** Treat the last word as a prefix, for search-as-you-type. @default false */
  readonly prefixLastWord?: boolean
}

/**
 * Full-text search over the user's raw text. Any text is safe: operators, quotes and punctuation are
 * searched as plain words or dropped, never parsed. How the text becomes a query is the backend's own
 * business (an FTS5 MATCH expression on SQLite).
 */
export interface FullTextSearch {
  /** The best rows first. Text with nothing searchable in it returns `[]`. */
  search(table: FullTextTable, text: string, query: FullTextQuery): Promise<FullTextHit[]>
  /**
   * Indexes every row of every table again from its text, as the current schema indexes it (a repair for an
   * index that lost or kept stale entries). Reports after each batch; returns the rows indexed per table.
   */
  rebuild(onProgress?: (event: FullTextRebuildProgress) => void): Promise<Record<FullTextTable, number>>
}

/** Progress of {@link FullTextSearch.rebuild}: rows of `table` indexed so far. */
export interface FullTextRebuildProgress {
  readonly table: FullTextTable
  readonly done: number
  readonly total: number
}

export interface VectorRow {
  readonly id: number | string
  readonly workspaceId: string
  readonly vector: Float32Array
  /** Hash of the embedded text, so unchanged texts are never embedded twice. */
  readonly textHash: string
}

export interface VectorHit {
  readonly id: number | string
  /** Cosine distance (0 = same direction). */
  readonly distance: number
  /** 1 − distance. */
  readonly similarity: number
}

export interface VectorIndex {
  readonly mode: 'sqlite-vec' | 'js-scan' | 'pgvector'
  /**
   * Stores vectors and indexes them. The first write to an index pins its model and dimension; a later
   * write or query with another model or dimension throws `StoreError('VECTOR_MISMATCH')` telling the user
   * to re-index.
   */
  upsert(index: VectorIndexName, rows: readonly VectorRow[], model: string): Promise<void>
  /** Removes the workspace's vectors of `ids` (ids of another workspace are left alone). */
  remove(index: VectorIndexName, workspaceId: string, ids: readonly (number | string)[]): Promise<void>
  nearest(
    index: VectorIndexName,
    query: Float32Array,
    options: { workspaceId: string; k: number; model: string },
  ): Promise<VectorHit[]>
  /**
   * Cosine similarity of `vector` to the stored vectors of `ids` (in the workspace, of `model`); ids without
   * such a vector are absent. Throws `StoreError('VECTOR_MISMATCH')` like `nearest` when the index holds
   * another model or dimension.
   */
  similarities(
    index: VectorIndexName,
    ids: readonly (number | string)[],
    vector: Float32Array,
    options: { workspaceId: string; model: string },
  ): Promise<Map<number | string, number>>
  /** The pinned model and dimension of an index, or null before its first write. */
  pinned(index: VectorIndexName): Promise<{ model: string; dimensions: number } | null>
  /** Text hashes of the workspace's stored vectors, by id (ids without a vector in it are absent). */
  textHashes(
    index: VectorIndexName,
    workspaceId: string,
    ids: readonly (number | string)[],
  ): Promise<Map<number | string, string>>
  /** Edge vectors are cached by triple text (`subject predicate object`) across edge ids. */
  cachedTextVectors(model: string, texts: readonly string[]): Promise<Map<string, Float32Array>>
  cacheTextVectors(model: string, entries: readonly { text: string; vector: Float32Array }[]): Promise<void>
  /** Every pinned index with its model and dimension, by index name. */
  pins(): Promise<VectorPin[]>
  /**
   * Drops every stored vector and every pin, in all workspaces, so the next write pins a new model (a
   * re-index; run it inside the transaction that writes the new vectors). Cached edge text vectors stay, they
   * are keyed by model. An index built by sqlite-vec cannot be dropped without the extension:
   * `StoreError('VECTOR_UNAVAILABLE')`.
   */
  reset(): Promise<void>
}

/** The model and dimension an index was pinned to by its first write. */
export interface VectorPin {
  readonly index: VectorIndexName
  readonly model: string
  readonly dimensions: number
}
