const NUL = '\u0000'

/**
 * A copy of a parsed JSON value with NUL characters stripped from every string (keys included), built
 * without recursion so that no nesting can exhaust the stack.
 */
export function stripNul(value: unknown): unknown {
  const root = shell(value)
  const pending: [source: unknown, copy: unknown][] = [[value, root]]
  while (pending.length > 0) {
    const [source, copy] = pending.pop()!
    if (typeof source !== 'object' || source === null) continue
    const isList = Array.isArray(source)
    for (const [key, item] of Object.entries(source)) {
      const child = shell(item)
      // defineProperty: a `__proto__` key stays a key, as JSON.parse made it.
      Object.defineProperty(copy, isList ? key : withoutNul(key), {
        value: child,
        enumerable: true,
        writable: true,
        configurable: true,
      })
      pending.push([item, child])
    }
  }
  return root
}

/** A string without NULs, an empty array or object to fill, or the scalar itself. */
function shell(value: unknown): unknown {
  if (typeof value === 'string') return withoutNul(value)
  if (Array.isArray(value)) return []
  return typeof value === 'object' && value !== null ? {} : value
}

function withoutNul(text: string): string {
  return text.includes(NUL) ? text.replaceAll(NUL, '') : text
}

/**
 * Whether a JSON value nests deeper than `limit` levels (a scalar is 0, `{}` is 1, `{a:{}}` is 2), walked
 * without recursion and stopping at the first level past the limit.
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: [item: unknown, depth: number][] = [[value, 0]]
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!
    if (typeof item !== 'object' || item === null) continue
    if (depth + 1 > limit) return true
    for (const child of Object.values(item)) pending.push([child, depth + 1])
  }
  return false
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Drops `null`/`undefined` entries (the stored form of configuration objects). Recursive: call it on
 * validated configuration only (at most 5 levels). `fromEntries` keeps a `__proto__` key a key.
 */
export function dropNulls(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== null && item !== undefined)
      .map(([key, item]) => [key, isPlainObject(item) ? dropNulls(item) : item]),
  )
}
