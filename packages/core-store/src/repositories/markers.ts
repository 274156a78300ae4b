import type { RepositoryScope } from './scope'

/** A consolidated statement about a peer (`profile_entries`), with the evidence for and against it. */
export interface ProfileEntry {
  readonly kind: string
  readonly statement: string
  readonly posEvidence: number
  readonly negEvidence: number
  readonly firstSeen: string
  readonly lastSeen: string
}

/** Behavioural markers (`behavioral_markers`) and the profile entries consolidated from them (`profile_entries`). */
export interface MarkersRepository {
  /**
   * A peer's profile entries with more evidence for than against, best supported first (ties: most recently
   * seen first), at most `limit`.
   */
  supportedProfileEntries(workspaceId: string, peerId: string, limit: number): Promise<ProfileEntry[]>
}

export function createMarkersRepository(scope: RepositoryScope): MarkersRepository {
  const { db } = scope
  return {
    async supportedProfileEntries(workspaceId, peerId, limit) {
      const rows = await db
        .selectFrom('profile_entries')
        .select(['kind', 'statement', 'pos_evidence', 'neg_evidence', 'first_seen', 'last_seen'])
        .where('workspace_id', '=', workspaceId)
        .where('peer_id', '=', peerId)
        .whereRef('pos_evidence', '>', 'neg_evidence')
        .orderBy('pos_evidence', 'desc')
        .orderBy('last_seen', 'desc')
        .limit(limit)
        .execute()
      return rows.map((row) => ({
        kind: row.kind,
        statement: row.statement,
        posEvidence: row.pos_evidence,
        negEvidence: row.neg_evidence,
        firstSeen: row.first_seen,
        lastSeen: row.last_seen,
      }))
    },
  }
}
