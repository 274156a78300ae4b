import { createLruMap } from '../../kernel/lru-map'

/** How long a counted document frequency is reused: IDF weights only need to be roughly current. */
const FREQUENCY_TTL_MS = 30_000
/** Most entries kept (least recently used dropped first): a term's entry is a few dozen bytes. */
const MAX_ENTRIES = 50_000

/** A query term's lexemes and how many of a workspace's rows of one table contain them (capped). */
export interface CountedTerm {
  readonly lexemes: readonly string[]
  readonly documents: number
}

/**
 * The document frequencies full-text search weights its terms by, per table and workspace, reused for
 * {@link FREQUENCY_TTL_MS}: the same words come back query after query, and counting them is most of a
 * search's cost on a large table. Per store, so per process; each entry ages out on its own, so weights
 * follow writes from any process within that time.
 */
export interface TermFrequencyCache {
  term(table: string, workspaceId: string, operand: string): CountedTerm | undefined
  rememberTerm(table: string, workspaceId: string, operand: string, counted: CountedTerm): void
  total(table: string, workspaceId: string): number | undefined
  rememberTotal(table: string, workspaceId: string, total: number): void
}

/** An empty cache; `now` is a monotonic clock in milliseconds. */
export function createTermFrequencyCache(now: () => number = () => performance.now()): TermFrequencyCache {
  const entries = createLruMap<string, { value: CountedTerm | number; at: number }>(MAX_ENTRIES)
  const read = (key: string) => {
    const entry = entries.get(key)
    if (entry === undefined) return undefined
    if (now() - entry.at <= FREQUENCY_TTL_MS) return entry.value
    entries.delete(key)
    return undefined
  }
  const write = (key: string, value: CountedTerm | number) => entries.set(key, { value, at: now() })
  const termKey = (table: string, workspaceId: string, operand: string) =>
    `${table}\u0000${workspaceId}\u0000${operand}`
  const totalKey = (table: string, workspaceId: string) => `${table}\u0000${workspaceId}`
  return {
    term: (table, workspaceId, operand) =>
      read(termKey(table, workspaceId, operand)) as CountedTerm | undefined,
    rememberTerm: (table, workspaceId, operand, counted) =>
      write(termKey(table, workspaceId, operand), counted),
    total: (table, workspaceId) => read(totalKey(table, workspaceId)) as number | undefined,
    rememberTotal: (table, workspaceId, total) => write(totalKey(table, workspaceId), total),
  }
}
