import type { MarkerKind } from '../kernel/tables'
import type { PurgeTx, Tally } from './tally'
import { slices } from './tally'

/**
 * A marker statement's identity in the profile: case, punctuation and spacing do not make a new entry
 * (the same rule dreaming's consolidation uses).
 */
function profileStatementKey(statement: string): string {
  return statement
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

interface Marker {
  readonly peerId: string
  readonly kind: string
  readonly statement: string
  readonly observedAt: string
}

/**
 * Removes the behavioural markers extracted from the chunks, and takes each consolidated one back out of
 * its profile entry: an entry left with no marker behind it is removed, the others are recounted from the
 * markers that remain. Returns the forgotten statements.
 */
export async function forgetMarkers(
  tx: PurgeTx,
  workspaceId: string,
  chunkIds: readonly number[],
  tally: Tally,
): Promise<string[]> {
  const gone: Marker[] = []
  for (const part of slices(chunkIds)) {
    const rows = await tx.db
      .deleteFrom('behavioral_markers')
      .where('workspace_id', '=', workspaceId)
      .where('chunk_id', 'in', part)
      .returning(['peer_id', 'kind', 'statement', 'observed_at', 'consolidated'])
      .execute()
    tally.add('markers', rows.length)
    for (const row of rows) {
      if (row.consolidated !== 1) continue
      gone.push({
        peerId: row.peer_id ?? '',
        kind: row.kind,
        statement: row.statement,
        observedAt: row.observed_at,
      })
    }
  }
  const entries = new Map<string, { peerId: string; kind: string; key: string; count: number }>()
  for (const marker of gone) {
    const key = profileStatementKey(marker.statement)
    const id = JSON.stringify([marker.peerId, marker.kind, key])
    const entry = entries.get(id) ?? { peerId: marker.peerId, kind: marker.kind, key, count: 0 }
    entry.count++
    entries.set(id, entry)
  }
  for (const entry of entries.values()) await settleEntry(tx, workspaceId, entry, tally)
  return gone.map((m) => m.statement)
}

async function settleEntry(
  tx: PurgeTx,
  workspaceId: string,
  entry: { peerId: string; kind: string; key: string; count: number },
  tally: Tally,
): Promise<void> {
  const stored = await tx.db
    .selectFrom('profile_entries')
    .select(['id', 'pos_evidence'])
    .where('workspace_id', '=', workspaceId)
    .where('peer_id', '=', entry.peerId)
    .where('kind', '=', entry.kind)
    .where('statement_key', '=', entry.key)
    .executeTakeFirst()
  if (!stored) return
  const remaining = (
    await tx.db
      .selectFrom('behavioral_markers')
      .select(['statement', 'observed_at'])
      .where('workspace_id', '=', workspaceId)
      .where('kind', '=', entry.kind as MarkerKind)
      .where('consolidated', '=', 1)
      .where((eb) => (entry.peerId === '' ? eb('peer_id', 'is', null) : eb('peer_id', '=', entry.peerId)))
      .orderBy('observed_at')
      .execute()
  ).filter((row) => profileStatementKey(row.statement) === entry.key)
  const pos = stored.pos_evidence - entry.count
  if (pos <= 0 || remaining.length === 0) {
    await tx.db
      .deleteFrom('profile_entries')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', stored.id)
      .execute()
    tally.add('profileEntries', 1)
    return
  }
  await tx.db
    .updateTable('profile_entries')
    .set({
      pos_evidence: pos,
      statement: remaining[0]!.statement,
      first_seen: remaining[0]!.observed_at,
      last_seen: remaining.at(-1)!.observed_at,
    })
    .where('id', '=', stored.id)
    .execute()
  tally.add('profileEntriesRecounted', 1)
}
