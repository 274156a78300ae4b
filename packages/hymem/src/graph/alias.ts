import { normalize, type Store } from '@hymem/core-store'
import { HyMemError } from '../errors'

/**
 * Maps a surface form to a canonical entity name (both normalised), in one transaction. Aliases that pointed
 * at the surface are re-pointed at the new canonical, so chains never form.
 */
export async function registerAlias(
  store: Store,
  workspaceId: string,
  surface: unknown,
  canonical: unknown,
): Promise<{ surface: string; canonical: string }> {
  const from = typeof surface === 'string' ? normalize(surface) : ''
  const to = typeof canonical === 'string' ? normalize(canonical) : ''
  if (from === '' || to === '') {
    throw new HyMemError('INVALID_INPUT', 'alias needs a non-empty surface and canonical name')
  }
  if (from === to) return { surface: from, canonical: to }
  await store.transaction(async (tx) => {
    await tx.workspaces.getOrCreate(workspaceId)
    await tx.db
      .insertInto('entity_aliases')
      .values({ workspace_id: workspaceId, surface: from, canonical: to, created_at: store.context.now() })
      .onConflict((oc) => oc.columns(['workspace_id', 'surface']).doUpdateSet({ canonical: to }))
      .execute()
    await tx.db
      .updateTable('entity_aliases')
      .set({ canonical: to })
      .where('workspace_id', '=', workspaceId)
      .where('canonical', '=', from)
      .execute()
  })
  return { surface: from, canonical: to }
}
