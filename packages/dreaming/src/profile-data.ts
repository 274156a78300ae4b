import { type ProfileEntry, readOutsideSection, type StoreScope } from '@hymem/core-store'
import {
  INSIGHTS_SECTION,
  type Insight,
  type InsightThresholds,
  insightThresholds,
  readInsights,
} from './steps/insights'
import { PROFILE_SECTION } from './steps/profile'
import type { DreamMarkdownPaths } from './types'

/** USER.md and MEMORY.md as data: what dreaming keeps in them, typed, and what people wrote around it. */
export interface ProfileData {
  /** USER.md's profile: every profile entry of the workspace, strongest first. */
  readonly entries: readonly ProfileEntry[]
  /** MEMORY.md's insights, computed from the current graph. */
  readonly insights: readonly Insight[]
  /** USER.md without dreaming's profile section (`''` when the file does not exist). */
  readonly userNotes: string
  /** MEMORY.md without dreaming's insights section. */
  readonly memoryNotes: string
}

/**
 * Reads a workspace's profile entries and insights as typed data, with the hand-written rest of USER.md and
 * MEMORY.md, so a reader never parses the bullets dreaming writes. Give the insight thresholds the dreams
 * run with (`config`) to get the insights MEMORY.md shows.
 *
 * @example
 * const data = await readProfileData(store, 'default', {
 *   markdown: { userMdPath: '/home/me/.hermes/USER.md', memoryMdPath: '/home/me/.hermes/MEMORY.md' },
 * })
 * for (const entry of data.entries) console.log(entry.kind, entry.statement)
 */
export async function readProfileData(
  store: StoreScope,
  workspaceId: string,
  options: {
    /** null: no files (PostgreSQL), so no hand-written notes either. */
    readonly markdown: DreamMarkdownPaths | null
    readonly config?: Partial<InsightThresholds>
  },
): Promise<ProfileData> {
  const { markdown } = options
  const [entries, insights, userNotes, memoryNotes] = await Promise.all([
    store.markers.profileEntries(workspaceId),
    readInsights(store, workspaceId, insightThresholds(options.config ?? {})),
    markdown ? readOutsideSection(markdown.userMdPath, PROFILE_SECTION) : '',
    markdown ? readOutsideSection(markdown.memoryMdPath, INSIGHTS_SECTION) : '',
  ])
  return { entries, insights, userNotes, memoryNotes }
}
