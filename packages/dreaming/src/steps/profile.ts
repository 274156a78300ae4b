import { edgeConfidence, type ProfileEntry, type StoreScope, writeSection } from '@hymem/core-store'
import { checkAbort, count, type RunContext } from '../run/context'

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
    const markers = await tx.markers.listUnconsolidated(workspaceId)
    let reinforced = 0
    for (const m of markers) {
      const key = statementKey(m.statement)
      if (key === '') continue
      const entry = await tx.markers.observeProfileEntry(workspaceId, {
        peerId: m.peerId,
        kind: m.kind,
        statement: m.statement,
        statementKey: key,
        observedAt: m.observedAt,
      })
      if (entry.posEvidence > 1) reinforced++
    }
    await tx.markers.markConsolidated(
      workspaceId,
      markers.map((m) => m.id),
    )
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
  const entries = await tx.markers.profileEntries(workspaceId)
  if (entries.length <= max) return 0
  const weakestFirst = [...entries].sort(
    (a, b) =>
      edgeConfidence(a.posEvidence, a.negEvidence) - edgeConfidence(b.posEvidence, b.negEvidence) ||
      a.posEvidence - b.posEvidence ||
      a.lastSeen.localeCompare(b.lastSeen) ||
      a.id - b.id,
  )
  const drop = weakestFirst.slice(0, entries.length - max).map((e) => e.id)
  return tx.markers.deleteProfileEntries(workspaceId, drop)
}

/**
 * Renders the profile, strongest first, and rewrites USER.md's auto-section. With entries of several peers
 * the section has one `### <peer>` heading per peer (in order of their strongest entry; entries of no peer
 * last, under `### (unattributed)`), so each peer's profile is its own part of the file.
 */
export async function writeProfileMarkdown(ctx: RunContext): Promise<void> {
  if (ctx.markdown === null) return
  const body = profileSectionBody(await ctx.store.markers.profileEntries(ctx.workspaceId))
  await writeSection(ctx.markdown.userMdPath, PROFILE_SECTION, body)
}

/** The body of USER.md's profile section: one bullet per entry, strongest first (the order given). */
export function profileSectionBody(entries: readonly ProfileEntry[]): string {
  const line = (e: ProfileEntry) =>
    `- [${e.kind}] ${e.statement}${e.posEvidence > 1 ? ` ×${e.posEvidence}` : ''}`
  const byPeer = new Map<string, ProfileEntry[]>()
  for (const entry of entries) {
    const key = entry.peerId ?? ''
    byPeer.set(key, [...(byPeer.get(key) ?? []), entry])
  }
  if (byPeer.size <= 1) return entries.map(line).join('\n')
  const peers = [...byPeer.keys()].sort((a, b) => (a === '' ? 1 : b === '' ? -1 : 0))
  const parts = peers.map((peer) =>
    [`### ${peer === '' ? '(unattributed)' : peer}`, '', ...(byPeer.get(peer) ?? []).map(line)].join('\n'),
  )
  return parts.join('\n\n')
}
