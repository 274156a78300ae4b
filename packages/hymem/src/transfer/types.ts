/** Counts of an import, per record type. */
export interface ImportReport {
  readonly inserted: Record<string, number>
  /** Records whose id already existed (import never overwrites). */
  readonly skipped: Record<string, number>
  /** Vectors computed with the configured model (notes, edges). */
  readonly embedded: number
  /** Things imported with a caveat (e.g. notes not embedded because the provider failed). */
  readonly warnings: readonly string[]
}

/** Progress of `reindex()`: rows of a full-text table indexed, or texts of a vector index embedded. */
export interface ReindexProgressEvent {
  readonly phase: 'full-text' | 'vectors'
  readonly index: string
  readonly done: number
  readonly total: number
}

/** Outcome of `reindex()`. */
export interface ReindexReport {
  /** Rows indexed per full-text table. */
  readonly fullText: Record<string, number>
  /** The embedding model the vectors were moved to; null without an embedding client (vectors untouched). */
  readonly model: string | null
  readonly dimensions: number
  /** Vectors written per index. */
  readonly vectors: Record<string, number>
  /** The pins before the swap (null where an index had none). */
  readonly previous: Record<string, { model: string; dimensions: number } | null>
}
