import { extractJson } from './json-text'

/**
 * Parses a rerank answer into scores clamped to 1..5 (rounded to halves). Unknown ids are ignored, and a
 * candidate the model did not score is absent from the map.
 */
export function parseRerankAnswer(text: string, ids: readonly string[]): Map<string, number> {
  const known = new Set(ids)
  const scores = new Map<string, number>()
  const json = extractJson(text)
  let entries: [unknown, unknown][] = []
  if (json && typeof json === 'object') {
    const list = Array.isArray(json) ? json : (json as { scores?: unknown }).scores
    if (Array.isArray(list)) {
      entries = list.map((x) =>
        x && typeof x === 'object'
          ? [(x as { id?: unknown }).id, (x as { score?: unknown }).score]
          : [undefined, undefined],
      )
    } else if (list && typeof list === 'object') {
      entries = Object.entries(list)
    }
  }
  for (const [id, raw] of entries) {
    const key = typeof id === 'number' ? String(id) : id
    if (typeof key !== 'string' || !known.has(key) || scores.has(key)) continue
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : Number.NaN
    if (!Number.isFinite(n)) continue
    scores.set(key, Math.round(Math.min(5, Math.max(1, n)) * 2) / 2)
  }
  return scores
}
