import type { HyMem } from 'hymem'

/** Outcome of `hymem.dream()`. */
export type DreamReport = Awaited<ReturnType<HyMem['dream']>>
/** Progress events of `hymem.dream()`. */
export type DreamProgress = Parameters<
  NonNullable<NonNullable<Parameters<HyMem['dream']>[0]>['onProgress']>
>[0]
/** What `hymem.augment()` returns. */
export type AugmentedContext = Awaited<ReturnType<HyMem['augment']>>
/** What `hymem.stats()` returns. */
export type Stats = Awaited<ReturnType<HyMem['stats']>>
/** What `hymem.import()` returns. */
export type ImportReport = Awaited<ReturnType<HyMem['import']>>
/** What `hymem.reindex()` returns. */
export type ReindexReport = Awaited<ReturnType<HyMem['reindex']>>
/** Progress events of `hymem.reindex()`. */
export type ReindexProgress = Parameters<
  NonNullable<NonNullable<Parameters<HyMem['reindex']>[0]>['onProgress']>
>[0]
