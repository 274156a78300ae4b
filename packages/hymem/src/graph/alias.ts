import { mergeCanonical, normalize, type Store } from '@hymem/core-store'
import { HyMemError } from '../errors'

/** What `alias()` did. */
export interface AliasResult {
  /** The normalised surface form. */
  readonly surface: string
  /** The canonical name it now resolves to. */
  readonly canonical: string
  /** Graph edges renamed in place, and edges folded into an existing one, by the merge. */
  readonly edgesRenamed: number
  readonly edgesMerged: number
}

/**
 * Makes `surface` a name of the entity `canonical`: every existing reference to the surface (edges and their
 * evidence, mentions, types, aliases, episode and procedure entities) is folded into the canonical entity
 * and the alias is recorded, in one transaction (core-store's `mergeCanonical`).
 */
export async function registerAlias(
  store: Store,
  workspaceId: string,
  surface: unknown,
  canonical: unknown,
): Promise<AliasResult> {
  const from = typeof surface === 'string' ? normalize(surface) : ''
  const to = typeof canonical === 'string' ? normalize(canonical) : ''
  if (from === '' || to === '') {
    throw new HyMemError('INVALID_INPUT', 'alias needs a surface and a canonical name with letters or digits')
  }
  await store.workspaces.getOrCreate(workspaceId)
  const report = await mergeCanonical(store, { workspaceId, from, to })
  return {
    surface: from,
    canonical: report.to,
    edgesRenamed: report.edgesRenamed,
    edgesMerged: report.edgesMerged,
  }
}
