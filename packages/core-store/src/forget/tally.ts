import type { Kysely } from 'kysely'
import type { StoreEngine } from '../engine/types'
import type { StoreContext } from '../kernel/context'
import type { HyMemDatabase } from '../kernel/tables'
import type { VectorIndex } from '../search/types'

/** What every cascade step works with: the transaction's query builder and vector index. */
export interface PurgeTx {
  readonly db: Kysely<HyMemDatabase>
  readonly vectors: VectorIndex
  readonly context: StoreContext
  /** The engine the purge runs on (repositories built inside the cascade use it). */
  readonly engine: StoreEngine
}

/** Counts by kind, added up across the steps of a purge. */
export class Tally {
  readonly #counts = new Map<string, number>()

  add(kind: string, n: number): void {
    if (n > 0) this.#counts.set(kind, (this.#counts.get(kind) ?? 0) + n)
  }

  toObject(): Record<string, number> {
    return Object.fromEntries([...this.#counts].sort(([a], [b]) => a.localeCompare(b)))
  }
}

/** Merges two receipts (a sweep adds to what the first pass removed). */
export function mergeCounts(
  a: Readonly<Record<string, number>>,
  b: Readonly<Record<string, number>>,
): Record<string, number> {
  const out: Record<string, number> = { ...a }
  for (const [kind, n] of Object.entries(b)) out[kind] = (out[kind] ?? 0) + n
  return Object.fromEntries(Object.entries(out).sort(([x], [y]) => x.localeCompare(y)))
}

/** Rows per `IN (...)` list. */
export const IN_LIST = 500

export function slices<T>(items: readonly T[], size = IN_LIST): T[][] {
  const out: T[][] = []
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size))
  return out
}

/** Whether a JSON array of ids shares an id with `ids`. */
export function sharesId(json: string, ids: ReadonlySet<number | string>): boolean {
  if (ids.size === 0) return false
  const parsed: unknown = JSON.parse(json)
  return Array.isArray(parsed) && parsed.some((id) => ids.has(id as number | string))
}
