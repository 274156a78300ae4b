import { _createRepositoryScope } from '../repositories/scope'
import { createWorkspacesRepository } from '../repositories/workspaces'
import { chunksOfMessages, chunksOfSession, chunkTexts, type DoomedChunk, evidenceOf } from './collect'
import {
  dropLlmCacheSince,
  forgetFeedback,
  forgetNotes,
  readMessages,
  removeChunks,
  removeMessages,
} from './content'
import { dropCachedTexts, forgetEvidence } from './graph'
import { forgetMarkers } from './profile'
import { scrubSearchLog } from './search-log'
import { clearSummaries, forgetEpisodesAndProcedures } from './sessions'
import { type PurgeTx, slices, Tally } from './tally'
import type { PurgeKind } from './types'

/** One pass of a purge: what to forget, and whether an earlier pass already ran. */
export interface CascadePlan {
  readonly workspaceId: string
  readonly kind: PurgeKind
  readonly target: string
  readonly messageIds: readonly number[]
  /** When the request was accepted. */
  readonly requestedAt: string
  /** False for the first pass; true for a sweep after a dream that may have run concurrently. */
  readonly sweep: boolean
}

/**
 * The one place that knows what derives from what. Removes the content a purge names and everything
 * derived from it, inside the caller's transaction, and returns the counts by kind:
 * messages (and their full-text rows) → chunks → mentions, vectors, markers (→ profile entries), evidence
 * (→ facts removed or recomputed, inferred facts, superseded facts reopened, entity types), episodes,
 * procedures and session summaries (cleared, so the next dream rebuilds them from what remains), notes that
 * cite the content, extraction feedback quoting it, LLM responses that may have seen it, and logged searches
 * that named it.
 */
export async function purgeContent(tx: PurgeTx, plan: CascadePlan): Promise<Record<string, number>> {
  const tally = new Tally()
  switch (plan.kind) {
    case 'workspace':
      await purgeWorkspace(tx, plan, tally)
      break
    case 'fact':
      await purgeFact(tx, plan.workspaceId, Number(plan.target), tally)
      break
    case 'note': {
      const texts = await forgetNotes(tx, plan.workspaceId, { ids: [plan.target] }, tally)
      await scrubSearchLog(tx, plan.workspaceId, texts, tally)
      break
    }
    default:
      await purgeMessages(tx, plan, tally)
  }
  return tally.toObject()
}

async function purgeMessages(tx: PurgeTx, plan: CascadePlan, tally: Tally): Promise<void> {
  const { workspaceId } = plan
  const messageIds = new Set(plan.messageIds)
  const wholeSession = plan.kind === 'session' && !plan.sweep ? plan.target : undefined
  const messages = await readMessages(tx, workspaceId, plan.messageIds)
  const chunks = new Map<number, DoomedChunk>()
  for (const chunk of await chunksOfMessages(tx, workspaceId, messageIds)) chunks.set(chunk.id, chunk)
  if (wholeSession !== undefined)
    for (const chunk of await chunksOfSession(tx, workspaceId, wholeSession)) chunks.set(chunk.id, chunk)
  const chunkIds = [...chunks.keys()]
  const texts = await chunkTexts(tx, workspaceId, chunkIds)
  const evidence = await evidenceOf(tx, workspaceId, chunkIds, messageIds)
  const statements = await forgetMarkers(tx, workspaceId, chunkIds, tally)
  const summaries = await forgetEpisodesAndProcedures(
    tx,
    workspaceId,
    {
      sessions: new Set(wholeSession === undefined ? [] : [wholeSession]),
      chunkIds: new Set(chunkIds),
      messageIds,
    },
    tally,
  )
  await removeChunks(tx, workspaceId, chunkIds, tally)
  const facts = await forgetEvidence(tx, workspaceId, evidence, [], tally)
  await removeMessages(tx, workspaceId, plan.messageIds, tally)
  const notes = await forgetNotes(
    tx,
    workspaceId,
    { ...(wholeSession !== undefined ? { sessionId: wholeSession } : {}), sources: messages.publicIds },
    tally,
  )
  await forgetFeedback(tx, workspaceId, texts, [], tally)
  const touched = new Set([
    ...messages.sessions,
    ...[...chunks.values()].map((c) => c.sessionId),
    ...summaries.sessions,
  ])
  if (wholeSession !== undefined) touched.add(wholeSession)
  const cleared = await clearSummaries(tx, workspaceId, touched, tally)
  if (wholeSession !== undefined) await emptySession(tx, workspaceId, wholeSession, tally)
  await dropLlmCacheSince(tx, earliest([...chunks.values()].map((c) => c.createdAt)), tally)
  await scrubSearchLog(
    tx,
    workspaceId,
    [
      ...messages.contents,
      ...texts,
      ...statements,
      ...summaries.texts,
      ...notes,
      ...cleared,
      ...facts.flatMap((f) => [f.subject, f.object]),
    ],
    tally,
  )
}

/**
 * A forgotten session keeps only its id, inactive (Honcho answers 404 for it and never reuses it): its
 * metadata, configuration, members and scope links go.
 */
async function emptySession(
  tx: PurgeTx,
  workspaceId: string,
  sessionId: string,
  tally: Tally,
): Promise<void> {
  const result = await tx.db
    .updateTable('sessions')
    .set({ is_active: 0, metadata: '{}', configuration: '{}' })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', sessionId)
    .executeTakeFirst()
  tally.add('sessions', Number(result.numUpdatedRows))
  await tx.db
    .deleteFrom('session_peers')
    .where('workspace_id', '=', workspaceId)
    .where('session_id', '=', sessionId)
    .execute()
  await tx.db
    .deleteFrom('scope_sessions')
    .where('workspace_id', '=', workspaceId)
    .where('session_id', '=', sessionId)
    .execute()
}

async function purgeFact(tx: PurgeTx, workspaceId: string, edgeId: number, tally: Tally): Promise<void> {
  const edge = await tx.db
    .selectFrom('knowledge_graph')
    .select(['id', 'subject', 'predicate', 'object'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', edgeId)
    .executeTakeFirst()
  if (!edge) return
  const evidence = await tx.db
    .selectFrom('kg_evidence')
    .leftJoin('chunks', 'chunks.id', 'kg_evidence.chunk_id')
    .select(['kg_evidence.id', 'kg_evidence.edge_id', 'kg_evidence.evidence_text', 'chunks.created_at'])
    .where('kg_evidence.edge_id', '=', edgeId)
    .execute()
  const removed = await forgetEvidence(
    tx,
    workspaceId,
    evidence.map((e) => ({ id: e.id, edgeId: e.edge_id })),
    [edgeId],
    tally,
  )
  await forgetFeedback(tx, workspaceId, [], [edge], tally)
  const since = earliest(evidence.flatMap((e) => (e.created_at === null ? [] : [e.created_at])))
  await dropLlmCacheSince(tx, since, tally)
  await scrubSearchLog(
    tx,
    workspaceId,
    [...removed.flatMap((f) => [f.subject, f.object]), ...evidence.map((e) => e.evidence_text ?? '')],
    tally,
  )
}

/** Row counts of a workspace by receipt kind, taken before it goes. */
const WORKSPACE_COUNTS = [
  ['messages', 'messages'],
  ['chunks', 'chunks'],
  ['mentions', 'entity_mentions'],
  ['evidence', 'kg_evidence'],
  ['facts', 'knowledge_graph'],
  ['markers', 'behavioral_markers'],
  ['profileEntries', 'profile_entries'],
  ['episodes', 'episodes'],
  ['procedures', 'procedures'],
  ['notes', 'notes'],
  ['feedback', 'extraction_feedback'],
  ['entityTypes', 'entity_types'],
  ['searchLog', 'search_log'],
  ['sessions', 'sessions'],
  ['peers', 'peers'],
  ['vectors', 'chunk_embeddings'],
  ['vectors', 'edge_vectors'],
  ['vectors', 'episode_embeddings'],
  ['vectors', 'note_embeddings'],
] as const

/**
 * Everything of the workspace, its row too. A sweep leaves a workspace created again after the request
 * alone.
 */
async function purgeWorkspace(tx: PurgeTx, plan: CascadePlan, tally: Tally): Promise<void> {
  const { workspaceId } = plan
  const workspace = await tx.db
    .selectFrom('workspaces')
    .select('created_at')
    .where('id', '=', workspaceId)
    .executeTakeFirst()
  if (!workspace || (plan.sweep && workspace.created_at > plan.requestedAt)) return
  for (const [kind, table] of WORKSPACE_COUNTS) {
    const row = await tx.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow()
    tally.add(kind, Number(row.n))
  }
  const edges = await tx.db
    .selectFrom('knowledge_graph')
    .select(['subject', 'predicate', 'object'])
    .where('workspace_id', '=', workspaceId)
    .execute()
  const firstChunk = await tx.db
    .selectFrom('chunks')
    .select((eb) => eb.fn.min('created_at').as('at'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst()
  const scope = _createRepositoryScope(tx.db, tx.context, { engine: tx.engine, inTransaction: true })
  await createWorkspacesRepository(scope).delete(workspaceId)
  for (const part of slices(edges, 5000)) await dropCachedTexts(tx, workspaceId, part)
  await dropLlmCacheSince(tx, firstChunk?.at ?? null, tally)
}

function earliest(times: readonly string[]): string | null {
  return [...times].sort()[0] ?? null
}
