import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type MessageRole, openStore, type Store } from '@hymem/core-store'
import { createRulesExtractor, type Extractor } from '@hymem/extraction'
import { afterEach, beforeEach } from 'vitest'
import { DEFAULT_DREAM_CONFIG, type DreamConfig } from '../src/config'
import { newTally, type RunContext } from '../src/run/context'
import { dream } from '../src/run/dream'
import type { DreamMarkdownPaths, DreamOptions } from '../src/types'

/** A temp-dir SQLite store with a settable clock and the two Markdown paths. */
export interface TestStore {
  readonly store: Store
  readonly dir: string
  readonly path: string
  readonly markdown: DreamMarkdownPaths
  setNow(iso: string): void
  cleanup(): Promise<void>
}

export const WS = 'ws1'

export function openTestStore(now = '2026-03-01T12:00:00.000Z', dir?: string): TestStore {
  const root = dir ?? mkdtempSync(join(tmpdir(), 'hymem-'))
  let current = new Date(now)
  const path = join(root, 'hymem.sqlite')
  const store = openStore({ path, clock: () => current })
  return {
    store,
    dir: root,
    path,
    markdown: { userMdPath: join(root, 'USER.md'), memoryMdPath: join(root, 'MEMORY.md') },
    setNow(iso) {
      current = new Date(iso)
    },
    async cleanup() {
      await store.close()
      if (!dir) rmSync(root, { recursive: true, force: true })
    },
  }
}

/**
 * A fresh `openTestStore()` for every test of the calling suite, cleaned up after it. The handle reads the
 * current test's store, so it can be kept in a `const` at the top of a `describe`.
 */
export function useTestStore(now?: string): TestStore {
  let current: TestStore | undefined
  beforeEach(() => {
    current = openTestStore(now)
  })
  afterEach(async () => {
    await current?.cleanup()
    current = undefined
  })
  const open = (): TestStore => {
    if (!current) throw new Error('useTestStore(): the store exists only while a test runs')
    return current
  }
  return {
    get store() {
      return open().store
    },
    get dir() {
      return open().dir
    },
    get path() {
      return open().path
    },
    get markdown() {
      return open().markdown
    },
    setNow: (iso) => open().setNow(iso),
    cleanup: () => open().cleanup(),
  }
}

/** Dreams the test store's workspace with the rules extractor (no model), as the default offline setup does. */
export function dreamWithRules(t: TestStore, extra: Partial<DreamOptions> = {}) {
  return dream({
    store: t.store,
    workspaceId: WS,
    extractor: createRulesExtractor(),
    markdown: t.markdown,
    ...extra,
  })
}

export interface Line {
  readonly peer: string
  readonly role: MessageRole
  readonly content: string
  readonly at: string
}

/** Logs a conversation into one session (one transaction). */
export async function logLines(store: Store, sessionId: string, lines: readonly Line[], workspaceId = WS) {
  return store.messages.insertBatch(
    workspaceId,
    sessionId,
    lines.map((l) => ({ peerId: l.peer, role: l.role, content: l.content, createdAt: l.at })),
  )
}

/** Shorthand: user lines by `alice` and assistant lines by `hermes`, one minute apart from `start`. */
export function conversation(start: string, turns: readonly (readonly [MessageRole, string])[]): Line[] {
  const t0 = new Date(start).getTime()
  return turns.map(([role, content], i) => ({
    peer: role === 'user' ? 'alice' : 'hermes',
    role,
    content,
    at: new Date(t0 + i * 60_000).toISOString(),
  }))
}

/** Every evidence row of the workspace's edges. */
export async function allEvidence(store: Store, workspaceId = WS) {
  const edges = await store.edges.listAll(workspaceId)
  return store.evidence.forEdges(
    workspaceId,
    edges.map((e) => e.id),
  )
}

/** The graph as comparable rows (ids left out: derived edges get new ids each cycle). */
export async function graphSnapshot(store: Store, workspaceId = WS) {
  const edges = await store.edges.listAll(workspaceId)
  const byId = new Map(edges.map((e) => [e.id, `${e.subject} ${e.predicate} ${e.object}`]))
  const evidence = await store.evidence.forEdges(
    workspaceId,
    edges.map((e) => e.id),
  )
  const firstMessage = new Map((await store.chunks.listAll(workspaceId)).map((c) => [c.id, c.firstMessageId]))
  return edges
    .map((e) => ({
      triple: byId.get(e.id)!,
      pos: e.posEvidence,
      neg: e.negEvidence,
      confidence: Math.round(e.confidence * 1e6) / 1e6,
      status: e.status,
      derived: e.derived,
      validTo: e.validTo,
      supersededBy: e.supersededBy === null ? null : (byId.get(e.supersededBy) ?? '?'),
      evidence: evidence
        .filter((v) => v.edgeId === e.id)
        .map((v) => `${v.source}:${v.polarity}:${v.chunkId === null ? '-' : firstMessage.get(v.chunkId)}`)
        .sort(),
    }))
    .sort((a, b) => `${a.triple}|${a.derived}`.localeCompare(`${b.triple}|${b.derived}`))
}

/** How many of each kind of thing dreaming writes the workspace holds. */
export async function tableCounts(store: Store, workspaceId = WS) {
  return {
    chunks: (await store.chunks.listAll(workspaceId)).length,
    processedChunks: (await store.chunks.listProcessed(workspaceId)).length,
    mentions: (await store.mentions.listAll(workspaceId)).length,
    entityTypes: (await store.entityTypes.listAll(workspaceId)).length,
    aliases: (await store.aliases.listAll(workspaceId)).length,
    edges: (await store.edges.listAll(workspaceId)).length,
    evidence: (await allEvidence(store, workspaceId)).length,
    markers: (await store.markers.listAll(workspaceId)).length,
    profileEntries: (await store.markers.profileEntries(workspaceId)).length,
    episodes: (await store.episodes.listAll(workspaceId)).length,
    procedures: (await store.procedures.listAll(workspaceId)).length,
    feedback: (await store.feedback.recent(workspaceId)).length,
  }
}

/** A run context for calling one step directly. */
export function stepContext(
  t: TestStore,
  extra: { extractor?: Extractor; config?: Partial<DreamConfig>; budget?: number } = {},
): RunContext {
  return {
    store: t.store,
    workspaceId: WS,
    extractor: extra.extractor ?? createRulesExtractor(),
    embeddings: undefined,
    pace: undefined,
    config: Object.freeze({ ...DEFAULT_DREAM_CONFIG, ...extra.config }),
    budget: extra.budget ?? 50,
    concurrency: 2,
    markdown: t.markdown,
    signal: undefined,
    emit: () => undefined,
    tally: newTally(),
  }
}
