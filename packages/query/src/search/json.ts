/** Parses a JSON array column into its integer entries; anything malformed yields `[]`. */
export function parseIdList(text: string | null | undefined): number[] {
  if (!text) return []
  try {
    const value: unknown = JSON.parse(text)
    if (!Array.isArray(value)) return []
    return value.filter((item): item is number => Number.isInteger(item))
  } catch {
    return []
  }
}

/** Parses a JSON column, returning `fallback` when it is malformed. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback
  try {
    return JSON.parse(text) as T
  } catch {
    return fallback
  }
}
