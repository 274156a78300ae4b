/** Strips NUL characters from every string (keys included) of a parsed JSON value. */
export function stripNul(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\u0000') ? value.replaceAll('\u0000', '') : value
  if (Array.isArray(value)) return value.map(stripNul)
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[stripNul(key) as string] = stripNul(item)
    return out
  }
  return value
}

/** Nesting depth of a JSON value: a scalar is 0, `{}` is 1, `{a:{}}` is 2. */
export function jsonDepth(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0
  let deepest = 0
  for (const item of Object.values(value)) deepest = Math.max(deepest, jsonDepth(item))
  return deepest + 1
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Drops `null`/`undefined` entries (the stored form of configuration objects). */
export function dropNulls(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    if (item === null || item === undefined) continue
    out[key] = isPlainObject(item) ? dropNulls(item) : item
  }
  return out
}
