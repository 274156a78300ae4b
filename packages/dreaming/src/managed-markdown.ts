import { type StoreScope, sectionMarkers } from '@hymem/core-store'
import {
  INSIGHTS_SECTION,
  type InsightThresholds,
  insightsSectionBody,
  insightThresholds,
  readInsights,
} from './steps/insights'
import { PROFILE_SECTION, profileSectionBody } from './steps/profile'

/**
 * USER.md and MEMORY.md rendered from the rows (profile entries, the current graph's insights), as a dream
 * would write them into empty files. This is what those files hold when there are no files: on PostgreSQL
 * the rows are the truth, and the files under `HYMEM_ROOT` are only a mirror.
 *
 * @example
 * const { userMd, memoryMd } = await renderManagedMarkdown(store, 'default')
 */
export async function renderManagedMarkdown(
  store: StoreScope,
  workspaceId: string,
  config: Partial<InsightThresholds> = {},
): Promise<{ userMd: string; memoryMd: string }> {
  const [entries, insights] = await Promise.all([
    store.markers.profileEntries(workspaceId),
    readInsights(store, workspaceId, insightThresholds(config)),
  ])
  return {
    userMd: sectionText(PROFILE_SECTION, profileSectionBody(entries)),
    memoryMd: sectionText(INSIGHTS_SECTION, insightsSectionBody(insights)),
  }
}

function sectionText(name: string, body: string): string {
  const { start, end } = sectionMarkers(name)
  return body === '' ? `${start}\n${end}\n` : `${start}\n${body}\n${end}\n`
}
