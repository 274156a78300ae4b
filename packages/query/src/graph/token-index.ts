/** token → canonicals containing it as a whole `_`-separated segment. */
export interface TokenOverlapIndex {
  readonly canonicals: number
  readonly byToken: ReadonlyMap<string, readonly string[]>
}

/** Segments shorter than this never link canonicals (`a`, `x`). */
const MIN_TOKEN_LENGTH = 2

/** Splits a canonical name into its segments. */
export function segmentsOf(canonical: string): string[] {
  return canonical.split('_').filter((segment) => segment.length >= MIN_TOKEN_LENGTH)
}

/** Builds the index over a set of canonical names. */
export function buildTokenOverlapIndex(canonicals: Iterable<string>): TokenOverlapIndex {
  const byToken = new Map<string, string[]>()
  let count = 0
  for (const canonical of canonicals) {
    count++
    for (const token of new Set(segmentsOf(canonical))) {
      const list = byToken.get(token)
      if (list) list.push(canonical)
      else byToken.set(token, [canonical])
    }
  }
  for (const list of byToken.values()) list.sort()
  return { canonicals: count, byToken }
}

/** An expansion found through a shared token. */
export interface OverlapExpansion {
  /** The matched canonical it was expanded from. */
  readonly entity: string
  readonly token: string
}

/**
 * For each multi-segment matched canonical, other canonicals sharing one of its rare segments (one shared by
 * at most `threshold` canonicals), rarest token first, at most `maxPerEntity` each. Matched entities are never
 * returned as expansions.
 */
export function expandByTokenOverlap(
  index: TokenOverlapIndex,
  matched: readonly string[],
  threshold: number,
  maxPerEntity: number,
): Map<string, OverlapExpansion> {
  const out = new Map<string, OverlapExpansion>()
  const matchedSet = new Set(matched)
  for (const entity of matched) {
    const segments = segmentsOf(entity)
    if (segments.length < 2 || maxPerEntity < 1) continue
    const rare = [...new Set(segments)]
      .map((token) => ({ token, others: index.byToken.get(token) ?? [] }))
      .filter(({ others }) => others.length > 1 && others.length <= threshold)
      .sort((a, b) => a.others.length - b.others.length || a.token.localeCompare(b.token))
    let added = 0
    for (const { token, others } of rare) {
      for (const other of others) {
        if (added >= maxPerEntity) break
        if (matchedSet.has(other) || out.has(other)) continue
        out.set(other, { entity, token })
        added++
      }
    }
  }
  return out
}
