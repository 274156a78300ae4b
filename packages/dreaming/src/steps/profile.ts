import { type StoreScope, writeSection } from '@hymem/core-store'
import { checkAbort, count, type RunContext } from '../run/context'
import { laplace } from './confidence'

/** The USER.md auto-section this step owns. */
export const PROFILE_SECTION = 'profile'

/** A marker statement's identity: case, punctuation and spacing do not make a new entry. */
export function statementKey(statement: string): string {
  return statement
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

/**
 * Phase 2 profile consolidation (no LLM): unconsolidated markers become profile entries. A repeat
 * reinforces its entry; a contradicting statement (another kind or wording) is its own entry, never an
 * overwrite. At most `profileMaxEntries` entries are kept, dropping the weakest. One transaction.
 */
export async function consolidateProfile(ctx: RunContext): Promise<void> {
  const { store, workspaceId, config } = ctx
  const stats = await store.transaction(async (tx) => {
    const markers = await tx.db
      .selectFrom('behavioral_markers')
      .select(['id', 'peer_id', 'kind', 'statement', 'observed_at'])
      .where('workspace_id', '=', workspaceId)
      .where('consolidated', '=', 0)
      .orderBy('observed_at')
      .orderBy('id')
      .execute()
    let reinforced = 0
    for (const m of markers) {
      const key = statementKey(m.statement)
      if (key === '') continue
      const peer = m.peer_id ?? ''
      const result = await tx.db
        .insertInto('profile_entries')
        .values({
          workspace_id: workspaceId,
          peer_id: peer,
          kind: m.kind,
          statement: m.statement,
          statement_key: key,
          first_seen: m.observed_at,
          last_seen: m.observed_at,
        })
        .onConflict((oc) =>
          oc.columns(['workspace_id', 'peer_id', 'kind', 'statement_key']).doUpdateSet((eb) => ({
            pos_evidence: eb('profile_entries.pos_evidence', '+', 1),
            last_seen: eb.fn('max', [eb.ref('profile_entries.last_seen'), eb.val(m.observed_at)]),
          })),
        )
        .returning(['pos_evidence'])
        .executeTakeFirst()
      if ((result?.pos_evidence ?? 1) > 1) reinforced++
    }
    if (markers.length > 0) {
      await tx.db
        .updateTable('behavioral_markers')
        .set({ consolidated: 1 })
        .where(
          'id',
          'in',
          markers.map((m) => m.id),
        )
        .execute()
    }
    const dropped = await capEntries(tx, workspaceId, config.profileMaxEntries)
    return { markers: markers.length, reinforced, dropped }
  })
  count(ctx, 'markersConsolidated', stats.markers)
  count(ctx, 'profileReinforced', stats.reinforced)
  count(ctx, 'profileDropped', stats.dropped)
  checkAbort(ctx)
  await writeProfileMarkdown(ctx)
}

async function capEntries(tx: StoreScope, workspaceId: string, max: number): Promise<number> {
  const entries = await tx.db
    .selectFrom('profile_entries')
    .select(['id', 'pos_evidence', 'neg_evidence', 'last_seen'])
    .where('workspace_id', '=', workspaceId)
    .execute()
  if (entries.length <= max) return 0
  const weakestFirst = [...entries].sort(
    (a, b) =>
      laplace(a.pos_evidence, a.neg_evidence) - laplace(b.pos_evidence, b.neg_evidence) ||
      a.pos_evidence - b.pos_evidence ||
      a.last_seen.localeCompare(b.last_seen) ||
      a.id - b.id,
  )
  const drop = weakestFirst.slice(0, entries.length - max).map((e) => e.id)
  await tx.db.deleteFrom('profile_entries').where('id', 'in', drop).execute()
  return drop.length
}

/** Renders the profile, strongest first, and rewrites USER.md's auto-section. */
export async function writeProfileMarkdown(ctx: RunContext): Promise<void> {
  const entries = await ctx.store.db
    .selectFrom('profile_entries')
    .select(['peer_id', 'kind', 'statement', 'pos_evidence', 'neg_evidence', 'last_seen'])
    .where('workspace_id', '=', ctx.workspaceId)
    .orderBy('pos_evidence', 'desc')
    .orderBy('first_seen')
    .orderBy('statement')
    .execute()
  const peers = new Set(entries.map((e) => e.peer_id))
  const lines = entries.map((e) => {
    const who = peers.size > 1 && e.peer_id !== '' ? ` (${e.peer_id})` : ''
    const times = e.pos_evidence > 1 ? ` ×${e.pos_evidence}` : ''
    return `- [${e.kind}]${who} ${e.statement}${times}`
  })
  await writeSection(ctx.markdown.userMdPath, PROFILE_SECTION, lines.join('\n'))
}
