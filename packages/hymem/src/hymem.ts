import {
  loadTokenCounter,
  type Message,
  type NewMessage,
  readManagedFile,
  type Store,
} from '@hymem/core-store'
import {
  DEFAULT_DREAM_CONFIG,
  type DreamProgressEvent,
  type DreamReport,
  type LLMResponseCache,
  type ProfileData,
  readProfileData,
  renderManagedMarkdown,
  retractEdge,
  rewriteMarkdown,
  type ScheduledDreamOptions,
} from '@hymem/dreaming'
import type { EmbeddingClient, Extractor, LLMClient } from '@hymem/extraction'
import type { AugmentedContext, Conflict, QueryEngine } from '@hymem/query'
import { DreamRunner } from './dream/dream-runner'
import { createQueueApi } from './dream/queue-api'
import type { HyMemQueue } from './dream/queue-types'
import type { DreamWorkerHost } from './dream/worker-host'
import { _asHyMemError, HyMemError } from './errors'
import { createEraseApi } from './forget/erase-api'
import { Purger } from './forget/purger'
import type { HyMemErase } from './forget/types'
import { type AliasResult, registerAlias } from './graph/alias'
import { entityHistory } from './history/history'
import type { EntityHistory } from './history/types'
import { requireSessionId, requireWorkspaceId, toCaptureMessages, toLogMessage } from './input'
import { createInspectApi } from './inspect/inspect-api'
import type { HyMemInspect } from './inspect/types'
import type { HyMemLog } from './log'
import { logStream } from './log-stream'
import type { LogStreamResult, SessionBatch } from './log-stream-types'
import { markdownPathsFor } from './markdown-paths'
import type { NotesContext } from './notes/context'
import { createNotesApi } from './notes/notes-api'
import type { HyMemNotes } from './notes/types'
import { createRecords } from './records/records'
import { createSessionsApi } from './records/sessions-api'
import type { HyMemRecords, HyMemSessions } from './records/types'
import { _eventLoopDelay, _watchEventLoop } from './runtime/event-loop'
import type { RuntimeStatus } from './runtime/types'
import { collectStats } from './stats/stats'
import type { HyMemStats } from './stats/types'
import { exportLines } from './transfer/export'
import { importDump } from './transfer/import-dump'
import { reindexStore } from './transfer/reindex'
import type { ImportReport, ReindexProgressEvent, ReindexReport } from './transfer/types'
import type { CaptureTurn, HyMem, HyMemAugmentOptions, HyMemDatabase, LogInput } from './types'

type Ws = { readonly workspaceId?: string }
type DreamOptions = Ws & {
  readonly budget?: number
  readonly signal?: AbortSignal
  readonly onProgress?: (event: DreamProgressEvent) => void
}

/**
 * Where USER.md / MEMORY.md live: `files` (SQLite: the files under root are read and written), `rows`
 * (PostgreSQL: rendered from the rows, no files), `rows-and-mirror` (PostgreSQL, the files written as a mirror).
 */
export type MarkdownMode = 'files' | 'rows' | 'rows-and-mirror'

/** Everything a facade instance is built from (resolved by `createHyMem`). */
export interface HyMemParts {
  readonly store: Store
  /** Whether `close()` closes the store. */
  readonly ownsStore: boolean
  readonly root: string
  readonly workspaceId: string
  readonly markdown: MarkdownMode
  readonly llm: LLMClient | null
  readonly extractor: Extractor
  /** The LLM response cache the extractor answers through, when an LLM is configured. */
  readonly llmCache: LLMResponseCache | null
  readonly embeddings: EmbeddingClient | null
  readonly engine: QueryEngine
  readonly notes: NotesContext
  readonly log: HyMemLog
  readonly dreamConfig: ScheduledDreamOptions['config']
  readonly dreamCooldownMs: number
  /** Runs the dreams when they run in a worker thread (`dreamIn`); null: on this thread. */
  readonly dreamWorker: DreamWorkerHost | null
  /** Whether `close()` closes the dream worker (forks share their parent's). */
  readonly ownsDreamWorker: boolean
  /** Builds a sibling facade over a new connection (used by `fork()`). */
  readonly fork: (store: Store) => Promise<HyMem>
}

/** The facade. Built by `createHyMem`; see {@link HyMem} for the method contracts. */
export class HyMemInstance implements HyMem {
  readonly root: string
  readonly workspaceId: string
  readonly extractor: Extractor
  readonly llm: LLMClient | null
  readonly embeddings: EmbeddingClient | null
  readonly database: HyMemDatabase
  readonly inspect: HyMemInspect
  readonly notes: HyMemNotes
  readonly erase: HyMemErase
  readonly queue: HyMemQueue
  readonly workspaces: HyMemRecords['workspaces']
  readonly sessions: HyMemSessions
  readonly peers: HyMemRecords['peers']
  readonly peerCards: HyMemRecords['peerCards']
  readonly scopes: HyMemRecords['scopes']
  readonly messages: HyMemRecords['messages']
  readonly conclusions: HyMemRecords['conclusions']
  readonly #store: Store
  readonly #parts: HyMemParts
  readonly #purger: Purger
  readonly #dreams: DreamRunner
  readonly #leaveEventLoop = _watchEventLoop()
  #closed = false

  constructor(parts: HyMemParts) {
    this.#parts = parts
    this.#store = parts.store
    this.database = Object.freeze({ backend: parts.store.backend, location: parts.store.location })
    this.root = parts.root
    this.workspaceId = parts.workspaceId
    this.extractor = parts.extractor
    this.llm = parts.llm
    this.embeddings = parts.embeddings
    this.#dreams = new DreamRunner({
      ...parts,
      markdownFiles: (ws) => {
        if (parts.markdown === 'rows') return null
        const files = this.markdownPaths(ws)
        return { userMdPath: files.userMd, memoryMdPath: files.memoryMd }
      },
    })
    const ensureOpen = () => this.#open()
    // Each group checks what a library user hands it; the facade's own calls between groups pass checked values.
    const openWorkspace = (workspaceId: string | undefined) => {
      this.#open()
      return this.#ws(workspaceId)
    }
    this.inspect = createInspectApi({
      store: parts.store,
      workspace: (workspaceId) => this.#ws(workspaceId),
      ensureOpen,
    })
    this.notes = createNotesApi({ notes: parts.notes, workspace: openWorkspace })
    this.queue = createQueueApi({
      store: parts.store,
      dreams: this.#dreams,
      promptVersion: parts.extractor.promptVersion,
      workspace: (workspaceId) => this.#ws(workspaceId),
      ensureOpen,
    })
    const records = createRecords(parts.store, ensureOpen)
    this.workspaces = records.workspaces
    this.sessions = createSessionsApi(parts.store, records, ensureOpen)
    this.peers = records.peers
    this.peerCards = records.peerCards
    this.scopes = records.scopes
    this.messages = records.messages
    this.conclusions = records.conclusions
    this.#purger = new Purger({
      store: parts.store,
      log: parts.log,
      markdownPaths: (ws) => this.markdownPaths(ws),
      invalidate: (ws) => parts.engine.invalidateQueryCaches(ws),
      rewriteMarkdown: async (ws) => {
        const { extractor, markdown, config } = this.#dreams.options(ws)
        await rewriteMarkdown({
          store: parts.store,
          workspaceId: ws,
          extractor,
          markdown,
          ...(config ? { config } : {}),
        })
      },
    })
    this.erase = createEraseApi({
      store: parts.store,
      purger: this.#purger,
      notes: parts.notes,
      log: parts.log,
      workspace: openWorkspace,
    })
  }

  markdownPaths(workspaceId?: string): { userMd: string; memoryMd: string } {
    return markdownPathsFor(this.root, this.workspaceId, this.#ws(workspaceId))
  }

  async log(input: LogInput): Promise<Message> {
    this.#open()
    const { sessionId, message } = toLogMessage(input)
    const [stored] = await this.#store.messages.insertBatch(this.#ws(input.workspaceId), sessionId, [message])
    if (!stored) throw new HyMemError('INVALID_INPUT', 'the message was not stored')
    return stored
  }

  async logMessages(
    sessionId: string,
    messages: readonly NewMessage[],
    options: Ws = {},
  ): Promise<Message[]> {
    this.#open()
    requireSessionId(sessionId)
    if (!Array.isArray(messages)) throw new HyMemError('INVALID_INPUT', 'messages must be an array')
    if (messages.length === 0) return []
    return this.#store.messages.insertBatch(this.#ws(options.workspaceId), sessionId, messages)
  }

  async logStream(
    batches: AsyncIterable<readonly SessionBatch[]>,
    options: Ws & {
      readonly signal?: AbortSignal
      readonly onBatch?: (result: LogStreamResult) => void
    } = {},
  ): Promise<LogStreamResult> {
    this.#open()
    return logStream(this.#store, this.#ws(options.workspaceId), batches, options)
  }

  async capture(
    turns: readonly CaptureTurn[],
    options: Ws & { readonly sessionId?: string; readonly dream?: boolean } = {},
  ): Promise<{ sessionId: string; messages: Message[]; dream: DreamReport | null }> {
    this.#open()
    const workspaceId = this.#ws(options.workspaceId)
    const sessionId =
      options.sessionId === undefined ? `capture-${this.#store.context.newId()}` : options.sessionId
    requireSessionId(sessionId)
    const batch = toCaptureMessages(turns)
    const messages =
      batch.length === 0 ? [] : await this.#store.messages.insertBatch(workspaceId, sessionId, batch)
    const report = options.dream === true ? await this.#dream(workspaceId, {}) : null
    return { sessionId, messages, dream: report }
  }

  async dream(options: DreamOptions = {}): Promise<DreamReport> {
    this.#open()
    return this.#dream(this.#ws(options.workspaceId), options)
  }

  async #dream(workspaceId: string, options: DreamOptions): Promise<DreamReport> {
    // A purge a crash left unfinished is finished first, so the dream never works on forgotten content.
    await this.#purger.settle(workspaceId)
    return this.#dreams.run(workspaceId, {
      ...(options.budget !== undefined ? { budget: options.budget } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    })
  }

  runtime(): RuntimeStatus {
    return { eventLoopDelay: _eventLoopDelay(), dreams: this.#dreams.status(this.#closed) }
  }

  async augment(message: string, options: HyMemAugmentOptions = {}): Promise<AugmentedContext> {
    this.#open()
    const workspaceId = this.#ws(options.workspaceId)
    const files =
      options.userMd !== undefined && options.memoryMd !== undefined
        ? null
        : await this.#markdown(workspaceId)
    const userMd = options.userMd ?? files?.userMd ?? ''
    const memoryMd = options.memoryMd ?? files?.memoryMd ?? ''
    return this.#parts.engine
      .augment(message, { ...options, workspaceId, userMd, memoryMd })
      .catch((error: unknown) => {
        throw _asHyMemError(error)
      })
  }

  async profile(options: Ws = {}): Promise<{ userMd: string; memoryMd: string }> {
    this.#open()
    return this.#markdown(this.#ws(options.workspaceId))
  }

  /** USER.md and MEMORY.md: the files (SQLite), or rendered from the rows (PostgreSQL). */
  async #markdown(workspaceId: string): Promise<{ userMd: string; memoryMd: string }> {
    if (this.#parts.markdown !== 'files') {
      return renderManagedMarkdown(this.#store, workspaceId, this.#parts.dreamConfig ?? {}).catch(
        (error: unknown) => {
          throw _asHyMemError(error)
        },
      )
    }
    const files = this.markdownPaths(workspaceId)
    const [userMd, memoryMd] = await Promise.all([
      readManagedFile(files.userMd),
      readManagedFile(files.memoryMd),
    ])
    return { userMd, memoryMd }
  }

  async profileData(options: Ws = {}): Promise<ProfileData> {
    this.#open()
    const workspaceId = this.#ws(options.workspaceId)
    const files = this.markdownPaths(workspaceId)
    return readProfileData(this.#store, workspaceId, {
      markdown:
        this.#parts.markdown === 'files' ? { userMdPath: files.userMd, memoryMdPath: files.memoryMd } : null,
      ...(this.#parts.dreamConfig ? { config: this.#parts.dreamConfig } : {}),
    }).catch((error: unknown) => {
      throw _asHyMemError(error)
    })
  }

  async alias(surface: string, canonical: string, options: Ws = {}): Promise<AliasResult> {
    this.#open()
    const workspaceId = this.#ws(options.workspaceId)
    const result = await registerAlias(this.#store, workspaceId, surface, canonical)
    this.#parts.engine.invalidateQueryCaches(workspaceId)
    return result
  }

  async retract(
    edge: { subject: string; predicate: string; object: string; reason?: string },
    options: Ws = {},
  ): Promise<{ retracted: number }> {
    this.#open()
    const workspaceId = this.#ws(options.workspaceId)
    const result = await retractEdge(this.#store, workspaceId, edge).catch((error: unknown) => {
      throw _asHyMemError(error)
    })
    this.#parts.engine.invalidateQueryCaches(workspaceId)
    return { retracted: result.retracted }
  }

  async conflicts(options: Ws = {}): Promise<Conflict[]> {
    this.#open()
    return this.#parts.engine
      .conflicts({ workspaceId: this.#ws(options.workspaceId) })
      .catch((error: unknown) => {
        throw _asHyMemError(error)
      })
  }

  async history(subject: string, options: Ws = {}): Promise<EntityHistory> {
    this.#open()
    return entityHistory(this.#store, this.#ws(options.workspaceId), subject)
  }

  /** Internal (called by `createHyMem`): finishes the purges a killed process left. */
  async _resumeForgetting(): Promise<void> {
    await this.#purger.resume()
  }

  async transaction<T>(fn: (records: HyMemRecords) => Promise<T>): Promise<T> {
    this.#open()
    return this.#store.transaction((tx) => fn(createRecords(tx, () => this.#open())))
  }

  serving(): () => void {
    return this.#parts.dreamWorker?.foreground() ?? (() => {})
  }

  async warmUp(): Promise<void> {
    this.#open()
    await loadTokenCounter()
  }

  async stats(options: Ws = {}): Promise<HyMemStats> {
    this.#open()
    const config = { ...DEFAULT_DREAM_CONFIG, ...this.#parts.dreamConfig }
    const stats = await collectStats(this.#store, this.#ws(options.workspaceId), config)
    return { ...stats, runtime: this.runtime() }
  }

  export(options: Ws & { readonly withVectors?: boolean } = {}): AsyncIterable<string> {
    this.#open()
    const workspaceId =
      options.workspaceId === undefined ? undefined : requireWorkspaceId(options.workspaceId)
    return exportLines(this.#store, workspaceId, { withVectors: options.withVectors === true })
  }

  async import(lines: AsyncIterable<string> | Iterable<string>): Promise<ImportReport> {
    this.#open()
    const report = await importDump(this.#store, this.embeddings, this.#parts.log, lines)
    this.#parts.engine.invalidateQueryCaches()
    return report
  }

  async reindex(
    options: { onProgress?: (event: ReindexProgressEvent) => void; signal?: AbortSignal } = {},
  ): Promise<ReindexReport> {
    this.#open()
    const report = await reindexStore(this.#store, this.embeddings, options)
    const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, n) => a + n, 0)
    const vectors = sum(report.vectors)
    this.#parts.engine.invalidateQueryCaches()
    this.#parts.log({
      kind: 'reindex',
      level: 'info',
      fullTextRows: sum(report.fullText),
      model: report.model,
      dimensions: report.dimensions,
      vectors,
    })
    return report
  }

  invalidateQueryCaches(): void {
    this.#parts.engine.invalidateQueryCaches()
  }

  async fork(): Promise<HyMem> {
    this.#open()
    return this.#parts.fork(this.#store.fork())
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#dreams.close()
    await this.#purger.close()
    this.#leaveEventLoop()
    if (this.#parts.ownsStore) await this.#store.close()
  }

  /** Internal: the store under a facade of this package (see {@link _storeOf}). */
  static _storeOf(memory: HyMem): Store {
    if (!(memory instanceof HyMemInstance)) throw new TypeError('not a facade built by createHyMem')
    return memory.#store
  }

  /** Internal: the dream worker host, when dreams run in a worker (tests end it to simulate a crash). */
  get _dreamWorker(): DreamWorkerHost | null {
    return this.#parts.dreamWorker
  }

  #ws(workspaceId: string | undefined): string {
    return workspaceId === undefined ? this.workspaceId : requireWorkspaceId(workspaceId)
  }

  #open(): void {
    if (this.#closed) throw new HyMemError('CLOSED', 'this HyMem instance is closed')
  }
}

/**
 * Internal to this package (migrate, tests): the store under a facade. Not exported from the index: code
 * outside opens its store with `@hymem/core-store` and passes it as `createHyMem({ store })`.
 */
export function _storeOf(memory: HyMem): Store {
  return HyMemInstance._storeOf(memory)
}
