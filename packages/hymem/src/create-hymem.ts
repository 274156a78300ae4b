import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { openStore, type Store } from '@hymem/core-store'
import { createLLMResponseCache, type LLMResponseCache } from '@hymem/dreaming'
import {
  createLLMExtractor,
  createLLMReranker,
  createRulesExtractor,
  type Extractor,
} from '@hymem/extraction'
import { createQueryEngine } from '@hymem/query'
import { offlineEmbeddings } from './config/offline-embeddings'
import { HyMemError } from './errors'
import { HyMemInstance, type HyMemParts } from './hymem'
import { requireWorkspaceId } from './input'
import { _noopLog, type HyMemLog } from './log'
import { DEFAULT_NOTES_CONFIG, type NotesConfig } from './notes/types'
import type { HyMem, HyMemOptions } from './types'

const DEFAULT_DREAM_COOLDOWN_MS = 60_000

/**
 * Opens (creating when needed) a HyMem memory: one SQLite file plus USER.md / MEMORY.md under `root`.
 * The defaults are the CLI's and the server's: with no `llm`, dreaming uses the rule-based extractor; with no
 * `embeddings`, vectors come from the offline USE-lite model (`embeddings: null` turns vectors off: search is
 * then keyword + graph + recency). Close it with `close()`.
 *
 * @example
 * import { createHyMem } from 'hymem'
 *
 * const memory = await createHyMem({ root: '/tmp/hymem-demo' })
 * await memory.capture([
 *   { role: 'user', content: 'We switched from MySQL to Postgres last month.' },
 *   { role: 'assistant', content: 'Noted: Postgres it is.' },
 * ])
 * await memory.dream()
 * const context = await memory.augment('which database do we use?')
 * console.log(context.graphFacts.map((f) => `${f.subject} ${f.predicate} ${f.object}`))
 * await memory.close()
 */
export async function createHyMem(options: HyMemOptions = {}): Promise<HyMem> {
  const log: HyMemLog = options.log ?? _noopLog
  const root = resolve(options.root ?? join(homedir(), '.hermes'))
  const workspaceId = requireWorkspaceId(options.workspaceId ?? 'default')
  const cooldown = options.dreamCooldownMs ?? DEFAULT_DREAM_COOLDOWN_MS
  if (!Number.isFinite(cooldown) || cooldown < 0) {
    throw new HyMemError('INVALID_INPUT', `dreamCooldownMs must be a number ≥ 0 (got ${cooldown})`)
  }
  const llm = options.llm ?? null
  const embeddings = options.embeddings === undefined ? await offlineEmbeddings() : options.embeddings
  const notesConfig = resolveNotesConfig(options)
  const promptVersion = options.promptVersion
  // With an LLM, prompts are answered through a response cache in the database, so a dream re-run after a
  // crash (or a replay) never pays for the same prompt twice. Forks share it (and the extractor).
  let shared: { extractor: Extractor; llmCache: LLMResponseCache | null } | undefined
  const extraction = (store: Store): { extractor: Extractor; llmCache: LLMResponseCache | null } => {
    shared ??= buildExtraction(store)
    return shared
  }
  const buildExtraction = (store: Store): { extractor: Extractor; llmCache: LLMResponseCache | null } => {
    if (options.extractor) return { extractor: options.extractor, llmCache: null }
    if (!llm)
      return { extractor: createRulesExtractor(promptVersion ? { promptVersion } : {}), llmCache: null }
    const llmCache = createLLMResponseCache({ store })
    const extractor = createLLMExtractor({
      llm: llmCache.wrap(llm),
      ...(promptVersion ? { promptVersion } : {}),
    })
    return { extractor, llmCache }
  }
  if (!options.store && !llm && !options.extractor) {
    log({
      kind: 'notice',
      level: 'info',
      message: 'no LLM configured (HYMEM_LLM_API_KEY): dreaming uses the rule-based extractor',
    })
  }

  const build = (store: Store, ownsStore: boolean): HyMem => {
    const { extractor, llmCache } = extraction(store)
    const engine = createQueryEngine({
      store,
      ...(embeddings ? { embeddings } : {}),
      ...(llm ? { reranker: createLLMReranker({ llm }) } : {}),
      config: {
        notesMinSimilarity: notesConfig.minSimilarity,
        notesRelativeCutoff: notesConfig.relativeCutoff,
        ...(options.searchLog === false ? { searchLog: false } : {}),
        ...options.query,
      },
    })
    const parts: HyMemParts = {
      store,
      ownsStore,
      root,
      workspaceId,
      llm,
      extractor,
      llmCache,
      embeddings,
      engine,
      notes: { store, embeddings, config: notesConfig, log, searchLog: options.searchLog !== false },
      log,
      dreamConfig: options.dream,
      dreamCooldownMs: cooldown,
      fork: async (forked) => build(forked, true),
    }
    return new HyMemInstance(parts)
  }

  if (options.store) return build(options.store, false)
  const databasePath = resolve(options.databasePath ?? join(root, 'hymem.sqlite'))
  const store = openStore({
    path: databasePath,
    ...(options.clock ? { clock: options.clock } : {}),
    log: (event) => log({ kind: 'store', level: event.kind === 'vector-fallback' ? 'warn' : 'debug', event }),
  })
  log({
    kind: 'ready',
    level: 'debug',
    databasePath,
    workspaceId,
    extractor: options.extractor?.name ?? (llm ? `llm:${llm.model}` : 'rules'),
    embeddings: embeddings?.name ?? null,
  })
  const memory = build(store, true) as HyMemInstance
  try {
    await memory._resumeForgetting()
  } catch (error) {
    await memory.close()
    throw error
  }
  return memory
}

function resolveNotesConfig(options: HyMemOptions): NotesConfig {
  const config: NotesConfig = {
    ...DEFAULT_NOTES_CONFIG,
    ...(options.query?.notesMinSimilarity !== undefined
      ? { minSimilarity: options.query.notesMinSimilarity }
      : {}),
    ...(options.query?.notesRelativeCutoff !== undefined
      ? { relativeCutoff: options.query.notesRelativeCutoff }
      : {}),
    ...options.notes,
  }
  for (const [key, value] of Object.entries(config)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new HyMemError('INVALID_INPUT', `notes.${key} must be a finite number ≥ 0 (got ${String(value)})`)
    }
  }
  return Object.freeze(config)
}
