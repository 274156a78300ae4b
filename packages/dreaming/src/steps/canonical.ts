import { normalize, resolveAlias, type StoreScope } from '@hymem/core-store'

/** The canonical name the extractors use for the first-person speaker. */
export const USER_SUBJECT = 'user'

/**
 * Resolves surface forms to canonical names within one transaction: `normalize`, then the alias table.
 * The first-person `user` becomes the chunk's single user-role author when there is one.
 */
export class Canonicalizer {
  readonly #tx: StoreScope
  readonly #workspaceId: string
  readonly #speaker: string | null
  readonly #cache = new Map<string, string>()

  constructor(tx: StoreScope, workspaceId: string, speaker: string | null) {
    this.#tx = tx
    this.#workspaceId = workspaceId
    this.#speaker = speaker === null ? null : normalize(speaker) || null
  }

  /** The peer `user` maps to in this chunk, or null when the chunk has no single user author. */
  get speaker(): string | null {
    return this.#speaker
  }

  /**
   * The canonical name of a peer the extractor resolved (`subjectPeerId` / `objectPeerId`): its normalized
   * id, never looked up in the alias table (a peer id is not a surface form another entity may own).
   */
  peer(peerId: string): string {
    return normalize(peerId)
  }

  async resolve(surface: string): Promise<string> {
    const key = normalize(surface)
    if (key === '') return ''
    // Without a single author `user` stays `user`: the workspace-wide alias may name another peer.
    if (key === USER_SUBJECT) return this.#speaker ?? USER_SUBJECT
    const cached = this.#cache.get(key)
    if (cached !== undefined) return cached
    const canonical = (await resolveAlias(this.#tx, { workspaceId: this.#workspaceId, surface: key })) ?? key
    this.#cache.set(key, canonical)
    return canonical
  }
}
