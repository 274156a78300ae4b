import { StoreError } from '../kernel/errors'
import type { VectorRow } from './types'
import type { VectorSource } from './vector-sources'

/** sqlite-vec's upper bound on `k`. */
export const MAX_NEAREST_K = 4096

export function checkVector(vector: unknown): asserts vector is Float32Array {
  if (!(vector instanceof Float32Array) || vector.length === 0) {
    throw new StoreError('INVALID_INPUT', 'a vector must be a non-empty Float32Array')
  }
  for (const x of vector) {
    if (!Number.isFinite(x)) throw new StoreError('INVALID_INPUT', 'vector components must be finite numbers')
  }
}

/** Validates a batch before any write; returns its common dimension (null for an empty batch). */
export function checkRows(source: VectorSource, rows: readonly VectorRow[]): number | null {
  let dimensions: number | null = null
  for (const row of rows) {
    const validId =
      source.idKind === 'integer' ? Number.isSafeInteger(row.id) : typeof row.id === 'string' && row.id !== ''
    if (!validId)
      throw new StoreError('INVALID_INPUT', `${source.name} vector ids must be ${source.idKind} ids`)
    if (typeof row.workspaceId !== 'string' || row.workspaceId === '') {
      throw new StoreError('INVALID_INPUT', 'vector rows need a workspaceId')
    }
    if (typeof row.textHash !== 'string') throw new StoreError('INVALID_INPUT', 'vector rows need a textHash')
    checkVector(row.vector)
    dimensions ??= row.vector.length
    if (row.vector.length !== dimensions) {
      throw new StoreError(
        'INVALID_INPUT',
        `vectors in one batch must share a dimension (${dimensions} ≠ ${row.vector.length})`,
      )
    }
  }
  return dimensions
}

export function checkNearest(
  query: Float32Array,
  options: { workspaceId: string; k: number; model: string },
): void {
  checkVector(query)
  if (!Number.isInteger(options.k) || options.k < 1 || options.k > MAX_NEAREST_K) {
    throw new StoreError('INVALID_INPUT', `k must be an integer between 1 and ${MAX_NEAREST_K}`)
  }
  if (typeof options.workspaceId !== 'string' || options.workspaceId === '') {
    throw new StoreError('INVALID_INPUT', 'nearest needs a workspaceId')
  }
}

/** Vector reads and writes by id name their workspace. */
export function requireWorkspace(workspaceId: unknown): asserts workspaceId is string {
  if (typeof workspaceId !== 'string' || workspaceId === '')
    throw new StoreError('INVALID_INPUT', 'workspaceId must be a non-empty string')
}

/** Validates a batch for the text-keyed vector cache before any write. */
export function checkCachedTextVectors(
  model: unknown,
  entries: readonly { readonly text: unknown; readonly vector: unknown }[],
): void {
  if (typeof model !== 'string' || model === '')
    throw new StoreError('INVALID_INPUT', 'model must be a non-empty string')
  for (const entry of entries) {
    if (typeof entry.text !== 'string') throw new StoreError('INVALID_INPUT', 'cached text must be a string')
    checkVector(entry.vector)
  }
}
