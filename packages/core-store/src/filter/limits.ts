import { StoreError } from '../kernel/errors'
import type { Filter } from './types'

/**
 * How large a {@link Filter} may be. `in` and `jsonIn` lists are one bound parameter each, so their length
 * is not limited here. 1,000 conditions bind at most ~4,000 parameters (SQLite allows 32,766, PostgreSQL
 * 65,535) and, as balanced trees, nest about 15 levels (SQLite allows 1,000): a policy, not a crash guard.
 */
export const FILTER_LIMITS = Object.freeze({
  /** Conditions (every node that is not `and`/`or`/`not`) in one filter. */
  conditions: 1000,
  /** Nesting of `and`/`or`/`not`: far beyond any real filter, short of the stack. */
  depth: 64,
})

/**
 * Checks a filter against {@link FILTER_LIMITS} without recursing, so a filter of any depth or width is
 * answered with `StoreError('INVALID_INPUT')` naming the limit it passes. `name` (e.g. `messages`) is used
 * in the message. Malformed nodes are left to the translation, which reports them.
 */
export function checkFilterLimits(filter: Filter<string> | undefined, name: string): void {
  if (filter === undefined) return
  const pending: [unknown, number][] = [[filter, 0]]
  let conditions = 0
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!
    if (depth > FILTER_LIMITS.depth) {
      invalid(`a ${name} filter may nest and/or/not at most ${FILTER_LIMITS.depth} levels deep`)
    }
    const children = childrenOf(node)
    if (children === null) {
      conditions += 1
      if (conditions > FILTER_LIMITS.conditions) {
        invalid(`a ${name} filter may hold at most ${FILTER_LIMITS.conditions} conditions`)
      }
    } else {
      for (const child of children) pending.push([child, depth + 1])
    }
  }
}

/** The parts of an `and`/`or`/`not` node (none for an empty list), or null for a condition. */
function childrenOf(node: unknown): readonly unknown[] | null {
  if (typeof node !== 'object' || node === null) return null
  const { op, filters, filter } = node as { op?: unknown; filters?: unknown; filter?: unknown }
  if ((op === 'and' || op === 'or') && Array.isArray(filters)) return filters
  if (op === 'not') return [filter]
  return null
}

function invalid(message: string): never {
  throw new StoreError('INVALID_INPUT', message)
}
