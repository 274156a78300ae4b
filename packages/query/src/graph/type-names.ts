import type { Store } from '@hymem/core-store'
import { type EntityMatchLimits, entityKeys, type TypeExpansion } from './entities'

/**
 * The singular and plural spellings of a lookup key (its last `_` segment inflected): `databases` →
 * `database`, `libraries` → `library`, `package_manager` → `package_managers`. Includes the key itself.
 */
export function numberVariants(key: string): string[] {
  const cut = key.lastIndexOf('_') + 1
  const head = key.slice(0, cut)
  const word = key.slice(cut)
  const variants = new Set([key])
  if (word.length < 3) return [...variants]
  // A plural gets its singular; anything else gets its plural.
  if (/[^aeiou]ies$/.test(word)) variants.add(`${head}${word.slice(0, -3)}y`)
  else if (/(ss|x|z|ch|sh)es$/.test(word)) {
    // `boxes` → `box`, but `caches` → `cache`: keep both readings.
    variants.add(`${head}${word.slice(0, -2)}`)
    variants.add(`${head}${word.slice(0, -1)}`)
  } else if (/[^su]s$/.test(word)) variants.add(`${head}${word.slice(0, -1)}`)
  else if (/[^aeiou]y$/.test(word)) variants.add(`${head}${word.slice(0, -1)}ies`)
  else if (/(s|x|z|ch|sh)$/.test(word)) variants.add(`${head}${word}es`)
  else variants.add(`${head}${word}s`)
  return [...variants]
}

/**
 * Entities the message reaches by naming their type: when an n-gram of the message (singular or plural,
 * canonicalised) equals an `entity_types.type` of the workspace, that type's entities count as matched
 * through the type ("what database do we use?" → postgresql, mysql). At most `maxPerType` per type, best
 * evidenced first; entities in `exclude` (the directly matched ones) are left out. Each expansion's `entity`
 * is the type itself, since no matched entity led to it.
 */
export async function expandByTypeName(
  store: Store,
  workspaceId: string,
  message: string,
  limits: EntityMatchLimits & { readonly maxPerType: number },
  exclude: readonly string[],
): Promise<Map<string, TypeExpansion>> {
  const expansions = new Map<string, TypeExpansion>()
  if (limits.maxPerType < 1) return expansions
  const keys = new Set(entityKeys(message, limits).flatMap(numberVariants))
  if (keys.size === 0) return expansions
  const types = await store.entityTypes.findTypesNamed(workspaceId, [...keys])
  const skip = new Set(exclude)
  for (const type of types) {
    const entities = await store.entityTypes.findEntitiesOfType(
      workspaceId,
      type,
      limits.maxPerType + skip.size,
    )
    for (const entity of entities.filter((name) => !skip.has(name)).slice(0, limits.maxPerType)) {
      if (!expansions.has(entity)) expansions.set(entity, { entity: type, entityType: type })
    }
  }
  return expansions
}
