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

/** Progress of `reindex()`. */
export interface ReindexProgressEvent {
  readonly index: string
  readonly done: number
  readonly total: number
}

/** Outcome of `reindex()`. */
export interface ReindexReport {
  readonly model: string
  readonly dimensions: number
  /** Vectors written per index. */
  readonly vectors: Record<string, number>
  /** The pins before the swap (null where an index had none). */
  readonly previous: Record<string, { model: string; dimensions: number } | null>
}
