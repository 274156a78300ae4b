import { hostname } from 'node:os'
import { createThreadWriteLock, randomId, type Store } from '@hymem/core-store'
import { createLLMReranker, type EmbeddingClient } from '@hymem/extraction'
import { createQueryEngine } from '@hymem/query'
import { resolveLocalModel } from './config/local-model'
import { offlineEmbeddings } from './config/offline-embeddings'
import { chooseDatabase, type DatabaseChoice, describeDatabase } from './database/database-option'
import { openDatabase } from './database/open-database'
import { _databasePaths } from './database/open-hymem-store'
import { type DreamExtraction, dreamExtraction } from './dream/extraction'
import { createHeartbeatBuffer } from './dream/request-heartbeat'
import { createDreamWorkerHost } from './dream/worker-host'
import type { DreamWorkerClients, DreamWorkerData } from './dream/worker-protocol'
import { HyMemError } from './errors'
import { HyMemInstance, type HyMemParts, type MarkdownMode } from './hymem'
import { requireWorkspaceId } from './input'
import { _noopLog, _storeLog, type HyMemLog } from './log'
import { DEFAULT_NOTES_CONFIG, type NotesConfig } from './notes/types'
import type { HyMem, HyMemOptions } from './types'

const DEFAULT_DREAM_COOLDOWN_MS = 60_000

/**
 * Opens (creating when needed) a HyMem memory: one SQLite file plus USER.md / MEMORY.md under `root`.
 * The defaults are the CLI's and the server's: with no `llm`, dreaming uses the rule-based extractor; with no
 * `embeddings`, vectors come from an offline model: the one the memory's stored vectors were made with, else
 * MiniLM (`embeddings: null` turns vectors off: search is then keyword + graph + recency). Close it with `close()`.
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
  const { root, databasePath } = _databasePaths(options)
  const workspaceId = requireWorkspaceId(options.workspaceId ?? 'default')
  const cooldown = options.dreamCooldownMs ?? DEFAULT_DREAM_COOLDOWN_MS
  if (!Number.isFinite(cooldown) || cooldown < 0) {
    throw new HyMemError('INVALID_INPUT', `dreamCooldownMs must be a number ≥ 0 (got ${cooldown})`)
  }
  const llm = options.llm ?? null
  // Without `embeddings`, the offline model is the store's (see resolveLocalModel), known once it is open.
  let embeddings: EmbeddingClient | null = null
  const embedderFor = async (store: Store): Promise<EmbeddingClient | null> =>
    options.embeddings === undefined ? offlineEmbeddings(await resolveLocalModel(store)) : options.embeddings
  const notesConfig = resolveNotesConfig(options)
  const promptVersion = options.promptVersion
  // Forks share the extractor and, with an LLM, its response cache.
  let shared: DreamExtraction | undefined
  const extraction = (store: Store): DreamExtraction => {
    shared ??= buildExtraction(store)
    return shared
  }
  const buildExtraction = (store: Store): DreamExtraction =>
    options.extractor
      ? { extractor: options.extractor, llmCache: null }
      : dreamExtraction(store, { llm, promptVersion })
  if (!options.store && !llm && !options.extractor) {
    log({
      kind: 'notice',
      level: 'info',
      message: 'no LLM configured (HYMEM_LLM_API_KEY): dreaming uses the rule-based extractor',
    })
  }

  const database = chooseDatabase(options.database, databasePath)
  const markdown = markdownMode(options.store?.backend ?? database.backend, options)
  let inWorker = options.dreamIn !== undefined && options.dreamIn !== 'process'
  if (inWorker && database.backend === 'postgres' && database.inProcess) {
    inWorker = false
    log({
      kind: 'notice',
      level: 'info',
      message: 'PGlite runs in this process only: dreams run on this thread, not in a worker',
    })
  }
  // SQLite: this thread's writes go first; the worker's transactions wait for them without blocking either loop.
  const writeLock = inWorker && database.backend === 'sqlite' ? createThreadWriteLock() : undefined
  const dreamWorker =
    !inWorker || options.dreamIn === undefined || options.dreamIn === 'process'
      ? null
      : createDreamWorkerHost({
          data: workerData(options, options.dreamIn.worker, {
            root,
            workspaceId,
            databasePath,
            databaseUrl: database.backend === 'postgres' && 'url' in database ? database.url : null,
            markdownFiles: markdown !== 'rows',
            writeLock: writeLock?.buffer ?? null,
          }),
          log,
        })

  const build = (store: Store, ownsStore: boolean, ownsDreamWorker: boolean): HyMemInstance => {
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
      markdown,
      llm,
      extractor,
      llmCache,
      embeddings,
      engine,
      notes: { store, embeddings, config: notesConfig, log, searchLog: options.searchLog !== false },
      log,
      dreamConfig: options.dream,
      dreamCooldownMs: cooldown,
      dreamWorker,
      ownsDreamWorker,
      fork: async (forked) => build(forked, true, false),
    }
    return new HyMemInstance(parts)
  }

  if (options.store) {
    embeddings = await embedderFor(options.store)
    return resumed(build(options.store, false, true))
  }
  let store: Store | undefined
  try {
    store = await openDatabase(database, {
      ...(options.clock ? { clock: options.clock } : {}),
      ...(writeLock ? { threadWriteLock: writeLock } : {}),
      log: _storeLog(log),
    })
    embeddings = await embedderFor(store)
  } catch (error) {
    await store?.close()
    await dreamWorker?.close()
    throw error
  }
  log({
    kind: 'ready',
    level: 'debug',
    databasePath: describeDatabase(database),
    workspaceId,
    extractor: options.extractor?.name ?? (llm ? `llm:${llm.model}` : 'rules'),
    embeddings: embeddings?.name ?? null,
  })
  return resumed(build(store, true, true))
}

/** Finishes the purges a killed process left before the memory is handed out. */
async function resumed(memory: HyMemInstance): Promise<HyMem> {
  try {
    await memory._resumeForgetting()
  } catch (error) {
    await memory.close()
    throw error
  }
  return memory
}

/** What the dream worker is built from; throws when an option cannot cross into it. */
function workerData(
  options: HyMemOptions,
  clients: DreamWorkerClients,
  resolved: Pick<
    DreamWorkerData,
    'root' | 'workspaceId' | 'databasePath' | 'databaseUrl' | 'markdownFiles' | 'writeLock'
  >,
): DreamWorkerData {
  const refuse = (what: string) => {
    throw new HyMemError(
      'INVALID_INPUT',
      `dreamIn: { worker } cannot take ${what}: it cannot cross into the worker thread; dream in 'process' instead`,
    )
  }
  if (!clients || typeof clients !== 'object' || !clients.llm || !clients.embedding)
    throw new HyMemError('INVALID_INPUT', "dreamIn must be 'process' or { worker: config } (a HyMemConfig)")
  if (options.extractor) refuse('a custom extractor')
  if (options.clock) refuse('a custom clock')
  if (options.store) refuse('an open store')
  if (((options.llm ?? null) === null) !== (clients.llm.apiKey === null))
    throw new HyMemError(
      'INVALID_INPUT',
      'dreamIn: { worker } and `llm` disagree: pass the LLM its llm settings describe (createHyMemFromConfig does)',
    )
  return {
    databasePath: resolved.databasePath,
    databaseUrl: resolved.databaseUrl,
    markdownFiles: resolved.markdownFiles,
    writeLock: resolved.writeLock,
    root: resolved.root,
    workspaceId: resolved.workspaceId,
    promptVersion: options.promptVersion ?? null,
    dream: { ...options.dream },
    clients: { llm: { ...clients.llm }, embedding: { ...clients.embedding } },
    holderId: `${hostname()}:${process.pid}:dream-worker:${randomId(8)}`,
    heartbeat: createHeartbeatBuffer(),
  }
}

/**
 * Where USER.md / MEMORY.md come from: SQLite keeps them as files under root (hand edits included); on
 * PostgreSQL the rows are the truth, and the files are written as a mirror when asked (or `root` is given).
 */
function markdownMode(backend: DatabaseChoice['backend'], options: HyMemOptions): MarkdownMode {
  if (backend === 'sqlite') return 'files'
  return (options.markdownMirror ?? options.root !== undefined) ? 'rows-and-mirror' : 'rows'
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
