import { ENGLISH_STOP_WORDS, normalize, type Store } from '@hymem/core-store'
import { ngrams, unspacedNames, words } from './ngrams'

/** Limits of {@link matchKnownEntities}. */
export interface EntityMatchLimits {
  readonly maxNgram: number
  readonly maxWords: number
}

/**
 * The lookup keys of a message: each 1..3-word n-gram lower-cased and canonicalised, in message order, and the
 * pieces of runs in scripts written without spaces (`unspacedNames`).
 */
export function entityKeys(message: string, limits: EntityMatchLimits): string[] {
  const keys = new Set<string>()
  const tokens = words(message, limits.maxWords)
  for (const gram of ngrams(tokens, limits.maxNgram, ENGLISH_STOP_WORDS)) {
    keys.add(gram.toLowerCase())
    const canonical = safeNormalize(gram)
    if (canonical) keys.add(canonical)
  }
  for (const token of tokens) for (const name of unspacedNames(token)) keys.add(name)
  return [...keys]
}

function safeNormalize(surface: string): string {
  try {
    return normalize(surface)
  } catch {
    return ''
  }
}

/**
 * Canonical entities named in a message: n-grams found in the alias table, as an edge subject, or as an edge
 * object that passes the shape filter (the object is also a subject somewhere, has an entity type, or is the
 * object of more than one edge), so a one-off gerund object like `working` never matches.
 */
export async function matchKnownEntities(
  store: Store,
  workspaceId: string,
  message: string,
  limits: EntityMatchLimits,
): Promise<string[]> {
  const keys = entityKeys(message, limits)
  if (keys.length === 0) return []
  const rows = await store.edges.findNamedEntities(workspaceId, keys)
  const position = new Map(keys.map((key, index) => [key, index]))
  const best = new Map<string, number>()
  for (const row of rows) {
    const at = position.get(row.key) ?? keys.length
    best.set(row.entity, Math.min(best.get(row.entity) ?? at, at))
  }
  return [...best.entries()].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0])).map(([entity]) => entity)
}

/** An entity added through its type: it shares one with a matched entity, or the message named the type. */
export interface TypeExpansion {
  /** The matched entity whose type it shares, or the type itself when the message named the type. */
  readonly entity: string
  readonly entityType: string
}

/**
 * Other entities of each matched entity's type (e.g. `uv` → `pip`, `poetry`: all `package_manager`), at most
 * `maxPerEntity` per matched entity, best evidenced first. Also returns the matched entities' own types.
 */
export async function expandByType(
  store: Store,
  workspaceId: string,
  matched: readonly string[],
  maxPerEntity: number,
): Promise<{ expansions: Map<string, TypeExpansion>; types: Map<string, string> }> {
  const expansions = new Map<string, TypeExpansion>()
  if (matched.length === 0 || maxPerEntity < 1) return { expansions, types: new Map() }
  const types = await store.entityTypes.typesOf(workspaceId, matched)
  const matchedSet = new Set(matched)
  // One indexed lookup per distinct type; enough rows to skip the matched entities themselves.
  const byType = new Map<string, string[]>()
  for (const type of new Set(types.values())) {
    const entities = await store.entityTypes.findEntitiesOfType(
      workspaceId,
      type,
      maxPerEntity + matched.length,
    )
    byType.set(
      type,
      entities.filter((entity) => !matchedSet.has(entity)),
    )
  }
  for (const entity of matched) {
    const type = types.get(entity)
    if (type === undefined) continue
    for (const target of (byType.get(type) ?? []).slice(0, maxPerEntity)) {
      if (!expansions.has(target)) expansions.set(target, { entity, entityType: type })
    }
  }
  return { expansions, types }
}
