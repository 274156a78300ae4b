import { refreshInsights } from '../steps/insights'
import { writeProfileMarkdown } from '../steps/profile'
import type { DreamOptions } from '../types'
import { newTally, type RunContext } from './context'
import { resolveOptions } from './options'

/**
 * Rewrites USER.md's profile section and MEMORY.md's insights section from what the store holds now, without
 * running a cycle (after forgetting, so the files drop what rested on the forgotten content).
 *
 * @example
 * await rewriteMarkdown({ store, workspaceId: 'default', extractor, markdown })
 */
export async function rewriteMarkdown(
  options: Pick<DreamOptions, 'store' | 'workspaceId' | 'extractor' | 'markdown' | 'config'>,
): Promise<void> {
  const { config } = resolveOptions(options)
  if (options.markdown === null) return
  const ctx: RunContext = {
    store: options.store,
    workspaceId: options.workspaceId,
    extractor: options.extractor,
    embeddings: undefined,
    config,
    budget: 0,
    concurrency: 1,
    markdown: options.markdown,
    signal: undefined,
    pace: undefined,
    emit: () => {},
    tally: newTally(),
  }
  await writeProfileMarkdown(ctx)
  await refreshInsights(ctx)
}
