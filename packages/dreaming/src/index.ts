/**
 * `@hymem/dreaming`: HyMem's offline pipeline. One cycle chunks new messages by salience, extracts facts,
 * markers and entity types per chunk (once per prompt version), writes episodes, procedures and session
 * summaries, consolidates USER.md and MEMORY.md, decays, infers, retains and embeds.
 *
 * @example
 * import { dream } from '@hymem/dreaming'
 * import { createRulesExtractor } from '@hymem/extraction'
 * const report = await dream({
 *   store, workspaceId: 'default', extractor: createRulesExtractor(),
 *   markdown: { userMdPath: '/home/me/.hermes/USER.md', memoryMdPath: '/home/me/.hermes/MEMORY.md' },
 * })
 *
 * @module
 */
export type { DreamConfig } from './config'
export { DEFAULT_DREAM_CONFIG } from './config'
export type { DreamErrorCode } from './errors'
export { DreamError } from './errors'
export type { LLMResponseCache } from './llm-cache'
export { createLLMResponseCache } from './llm-cache'
export { renderManagedMarkdown } from './managed-markdown'
export type { ProfileData } from './profile-data'
export { readProfileData } from './profile-data'
export type { RetractResult } from './retract'
export { retractEdge } from './retract'
export { dream } from './run/dream'
export { dreamLockName } from './run/lock'
export { rewriteMarkdown } from './run/rewrite-markdown'
export type {
  DreamCycleRunner,
  DreamScheduler,
  DreamSchedulerOptions,
  ScheduledCycle,
  ScheduledDreamOptions,
} from './scheduler'
export { createDreamScheduler } from './scheduler'
export { edgeText, episodeText } from './steps/embed'
export { messageText } from './steps/embed-messages'
export type {
  ContradictionInsight,
  DependencyHubInsight,
  Insight,
  InsightThresholds,
  PreferenceInsight,
} from './steps/insights'
export { readInsights } from './steps/insights'
export type { DreamMarkdownPaths, DreamOptions, DreamPhase, DreamProgressEvent, DreamReport } from './types'
