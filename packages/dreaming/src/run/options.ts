import { DEFAULT_DREAM_CONFIG, type DreamConfig } from '../config'
import { DreamError } from '../errors'
import type { DreamOptions } from '../types'

const isWholeAtLeast = (n: unknown, min: number) => typeof n === 'number' && Number.isInteger(n) && n >= min

/** Merges and checks the options; bad input is a `DreamError('INVALID_INPUT')` before anything is written. */
export function resolveOptions(options: DreamOptions): {
  config: DreamConfig
  budget: number
  concurrency: number
} {
  if (!options || typeof options !== 'object')
    throw new DreamError('INVALID_INPUT', 'dream() needs an options object')
  if (typeof options.workspaceId !== 'string' || options.workspaceId.trim() === '') {
    throw new DreamError('INVALID_INPUT', 'dream() needs a non-empty workspaceId')
  }
  if (!options.store) throw new DreamError('INVALID_INPUT', 'dream() needs a store (openStore())')
  if (!options.extractor)
    throw new DreamError('INVALID_INPUT', 'dream() needs an extractor (createRulesExtractor())')
  const md = options.markdown
  if (
    md !== null &&
    (!md ||
      typeof md.userMdPath !== 'string' ||
      typeof md.memoryMdPath !== 'string' ||
      !md.userMdPath ||
      !md.memoryMdPath)
  ) {
    throw new DreamError(
      'INVALID_INPUT',
      'dream() needs markdown.userMdPath and markdown.memoryMdPath (or markdown: null for no files)',
    )
  }
  const config: DreamConfig = Object.freeze({ ...DEFAULT_DREAM_CONFIG, ...(options.config ?? {}) })
  for (const [key, value] of Object.entries(config)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new DreamError(
        'INVALID_INPUT',
        `config.${key} must be a finite number >= 0, got ${String(value)}`,
      )
    }
  }
  const budget = options.budget ?? config.dreamBudget
  const concurrency = options.concurrency ?? config.concurrency
  if (!isWholeAtLeast(budget, 0))
    throw new DreamError('INVALID_INPUT', `budget must be an integer >= 0, got ${budget}`)
  if (!isWholeAtLeast(concurrency, 1)) {
    throw new DreamError('INVALID_INPUT', `concurrency must be an integer >= 1, got ${concurrency}`)
  }
  return { config, budget, concurrency }
}
