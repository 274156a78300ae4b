import type { Store } from '@hymem/core-store'
import { createLLMResponseCache, type LLMResponseCache } from '@hymem/dreaming'
import { createLLMExtractor, createRulesExtractor, type Extractor, type LLMClient } from '@hymem/extraction'

/** The extractor dreams use, and the response cache it answers through when an LLM is configured. */
export interface DreamExtraction {
  readonly extractor: Extractor
  readonly llmCache: LLMResponseCache | null
}

/**
 * With an LLM, prompts are answered through a response cache in the database, so a dream re-run after a
 * crash (or a replay) never pays for the same prompt twice; without one, the rule-based extractor.
 */
export function dreamExtraction(
  store: Store,
  options: { readonly llm: LLMClient | null; readonly promptVersion?: string | undefined },
): DreamExtraction {
  const versioned = options.promptVersion ? { promptVersion: options.promptVersion } : {}
  if (!options.llm) return { extractor: createRulesExtractor(versioned), llmCache: null }
  const llmCache = createLLMResponseCache({ store })
  return { extractor: createLLMExtractor({ llm: llmCache.wrap(options.llm), ...versioned }), llmCache }
}
