import { StoreError } from '../kernel/errors'
import { builderOf } from '../store/builder'
import type { Store, StoreScope } from '../store/types'
import { isCanonical, normalize } from '../text/normalize'
import { _requireWorkspace } from './workspace-id'

/** Input of {@link resolveAlias}. */
export interface ResolveAliasInput {
  readonly workspaceId: string
  /** Any spelling of an entity name: `PostgreSQL`, `the Postgres (db)`, `postgres`. */
  readonly surface: string
}

/** Input of {@link addAlias}. */
export interface AddAliasInput {
  readonly workspaceId: string
  readonly surface: string
  readonly canonical: string
}

/** Follows the alias table one step from an already normalized key; always returns a canonical name. */
export async function _lookupAlias(scope: StoreScope, workspaceId: string, key: string): Promise<string> {
  const row = await builderOf(scope)
    .selectFrom('entity_aliases')
    .select('canonical')
    .where('workspace_id', '=', workspaceId)
    .where('surface', '=', key)
    .executeTakeFirst()
  const canonical = row?.canonical ?? key
  if (isCanonical(canonical)) return canonical
  // an alias that points at a drifted name means that name's canonical form
  return normalize(canonical) || key
}

/**
 * The canonical name of an entity as spelled in `surface`: `normalize(surface)`, mapped through the
 * workspace's alias table. Returns null when the surface has nothing usable in it (`normalize` gives `''`).
 *
 * @example
 * ```ts
 * await addAlias(store, { workspaceId: 'w1', surface: 'Postgres', canonical: 'PostgreSQL' })
 * await resolveAlias(store, { workspaceId: 'w1', surface: 'the postgres' }) // 'postgresql'
 * ```
 */
export async function resolveAlias(store: StoreScope, input: ResolveAliasInput): Promise<string | null> {
  _requireWorkspace(input.workspaceId)
  const key = normalize(input.surface)
  return key === '' ? null : _lookupAlias(store, input.workspaceId, key)
}

/**
 * Records that `surface` names the entity `canonical` (both are normalized; a `canonical` that is itself
 * an alias is followed, so chains never form). Aliases that pointed at `surface` as their canonical are
 * re-pointed too. Only the alias table changes: use `mergeCanonical` to move existing graph data.
 * Returns the canonical name `surface` now resolves to.
 */
export async function addAlias(store: Store, input: AddAliasInput): Promise<string> {
  _requireWorkspace(input.workspaceId)
  const surface = normalize(input.surface)
  const target = normalize(input.canonical)
  if (surface === '' || target === '') {
    throw new StoreError(
      'INVALID_INPUT',
      `Cannot alias ${JSON.stringify(input.surface)} to ${JSON.stringify(input.canonical)}: both need letters or digits.`,
    )
  }
  return store.transaction(async (tx) => {
    const canonical = await _lookupAlias(tx, input.workspaceId, target)
    await _pointAlias(tx, store.context.now(), input.workspaceId, surface, canonical)
    return canonical
  })
}

/**
 * Re-points aliases whose canonical was `surface` at `canonical` and, when `surface` is itself a canonical
 * name, records `surface` → `canonical`. Returns the number of alias rows written.
 */
export async function _pointAlias(
  tx: StoreScope,
  now: string,
  workspaceId: string,
  surface: string,
  canonical: string,
): Promise<number> {
  const repointed = await builderOf(tx)
    .updateTable('entity_aliases')
    .set({ canonical })
    .where('workspace_id', '=', workspaceId)
    .where('canonical', '=', surface)
    .executeTakeFirst()
  if (surface === canonical || !isCanonical(surface)) return Number(repointed.numUpdatedRows)
  await builderOf(tx)
    .insertInto('entity_aliases')
    .values({ workspace_id: workspaceId, surface, canonical, created_at: now })
    .onConflict((oc) => oc.columns(['workspace_id', 'surface']).doUpdateSet({ canonical }))
    .execute()
  return Number(repointed.numUpdatedRows) + 1
}
